import argon2 from 'argon2';

/** argon2id with OWASP's recommended memory cost. */
export const hashPassword = (password: string) =>
  argon2.hash(password, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });

/** The one check of a portal password against its stored argon2 hash (decision 104); a damaged hash never matches. */
const verify = (hash: string, password: string) => argon2.verify(hash, password).catch(() => false);

/**
 * Does `password` match the account's stored hash? Every password check (sign-in, step-up, changing one's own
 * password) asks this. An account without a portal password (the lab's directory, single sign-on) never matches.
 */
export async function passwordMatches(hash: string | null, password: string): Promise<boolean> {
  return hash !== null && (await verify(hash, password));
}

let dummyHash: Promise<string> | undefined;

/** A check of a login that names no account: as slow as a real one, so the answer's time tells nothing. */
export async function spendPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password');
  await verify(await dummyHash, password);
}
