import argon2 from 'argon2';

/** argon2id with OWASP's recommended memory cost. */
export const hashPassword = (password: string) =>
  argon2.hash(password, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });
