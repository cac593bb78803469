import { z } from 'zod';

import { wholeNumber } from './variables.ts';

/**
 * The optional password policy (decision 117), for labs that must follow the NIC password policy. Unset, neither rule
 * applies (NIST-style, as before).
 */
export interface PasswordPolicy {
  /** PASSWORD_MAX_AGE_DAYS: a portal password older than this is changed at sign-in; null: never. */
  maxAgeDays: number | null;
  /** PASSWORD_HISTORY: the current password and the N − 1 before it cannot be chosen again; null: no history. */
  history: number | null;
}

export const passwordsEnv = z.object({
  // 0 (unset) turns a rule off; set, each must be at least 1.
  PASSWORD_MAX_AGE_DAYS: wholeNumber('PASSWORD_MAX_AGE_DAYS', 0, 1, 3650),
  PASSWORD_HISTORY: wholeNumber('PASSWORD_HISTORY', 0, 1, 24),
});

export const passwordPolicy = (env: z.output<typeof passwordsEnv>): PasswordPolicy => ({
  maxAgeDays: env.PASSWORD_MAX_AGE_DAYS || null,
  history: env.PASSWORD_HISTORY || null,
});
