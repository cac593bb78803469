import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { z } from 'zod';

import { type Role, ROLES } from '#shared/constants.ts';

import { flag, refuse, text, variable, wholeNumber } from './variables.ts';

/**
 * Signing in (docs/decisions/105): the JWT secret and how long a sign-in lasts, the first admin, the sign-in and
 * registration throttles (decision 014), the step-up before classified letters (decision 066) and who must have a
 * second factor (decision 064).
 */

/** The JWT secret: JWT_SECRET, else one generated on first start and kept in DATA_DIR. */
export function jwtSecret(dataDir: string, fromEnv: string | undefined, created: string[]): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another node on a shared DATA_DIR wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
  created.push(file);
  return secret;
}

/** The classifications a step-up may guard (spec §5 Letters: Normal, Confidential, Secret; Normal never). */
export const STEP_UP_CLASSIFICATION_NAMES = ['Confidential', 'Secret'] as const;
export type StepUpClassification = (typeof STEP_UP_CLASSIFICATION_NAMES)[number];
export interface StepUpConfig {
  minutes: number;
  classifications: readonly StepUpClassification[];
}

const stepUpClassifications = variable((v, ctx): StepUpClassification[] => {
  if (v === undefined) return ['Secret'];
  const names = v
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const wrong = names.filter((n) => !(STEP_UP_CLASSIFICATION_NAMES as readonly string[]).includes(n));
  if (!names.length || wrong.length) {
    return refuse(
      ctx,
      `STEP_UP_CLASSIFICATIONS must be a comma-separated list of Confidential and Secret (got "${v}").`,
    );
  }
  return [...new Set(names as StepUpClassification[])];
});

/** Shortest JWT_SECRET accepted: 32 characters, 256 bits for an HS256 key of random letters and digits. */
export const JWT_SECRET_MIN_LENGTH = 32;

// The durations fast-jwt (through @fastify/jwt and @lukeed/ms) understands, with their unit: "8h", "30m", "7 days".
// A bare number would be milliseconds there (JWT_EXPIRES_IN=3600 a 3.6-second sign-in), so it is refused.
const DURATION =
  /^\d*\.?\d+ *(ms|msecs?|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|y|yrs?|years?)$/i;

/**
 * The role names MFA_REQUIRED_ROLES accepts: the README's (admin, director, associateDirector) and the database's
 * (associate_director), in any case.
 */
const ROLE_NAMES = new Map<string, Role>(
  ROLES.flatMap((role): [string, Role][] => [
    [role, role],
    [role.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()).toLowerCase(), role],
  ]),
);

const roleList = variable((v, ctx): Role[] => {
  if (v === undefined) return [];
  const names = v
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const wrong = names.filter((n) => !ROLE_NAMES.has(n.toLowerCase()));
  if (wrong.length === 0) return [...new Set(names.map((n) => ROLE_NAMES.get(n.toLowerCase())!))];
  return refuse(
    ctx,
    `MFA_REQUIRED_ROLES must be a comma-separated list of roles: admin, director, associateDirector, employee, pendingDirector (got "${v}"; not understood: ${wrong.map((w) => `"${w}"`).join(', ')}).`,
  );
});

export const signInEnv = z.object({
  JWT_SECRET: variable((v, ctx) => {
    if (v === undefined || v.length >= JWT_SECRET_MIN_LENGTH) return v;
    return refuse(
      ctx,
      `JWT_SECRET must be at least ${JWT_SECRET_MIN_LENGTH} characters long (it has ${v.length}). Use a long random value (openssl rand -base64 48), or unset it to have one generated and kept in DATA_DIR/jwt-secret.`,
    );
  }),
  JWT_SECRET_ROTATE: flag('JWT_SECRET_ROTATE', false),
  JWT_EXPIRES_IN: variable((v, ctx) => {
    if (v === undefined) return '8h';
    if (DURATION.test(v.trim()) && parseFloat(v) > 0) return v.trim();
    return refuse(ctx, `JWT_EXPIRES_IN must be a duration with its unit, such as 8h, 30m or 7d (got "${v}").`);
  }),
  ADMIN_EMAIL: text(),
  ADMIN_PASSWORD: text(),
  LOGIN_ACCOUNT_FAILURES: wholeNumber('LOGIN_ACCOUNT_FAILURES', 5, 1),
  LOGIN_ADDRESS_FAILURES: wholeNumber('LOGIN_ADDRESS_FAILURES', 100, 1),
  REGISTRATIONS_PER_ADDRESS: wholeNumber('REGISTRATIONS_PER_ADDRESS', 10, 1),
  STEP_UP_MINUTES: wholeNumber('STEP_UP_MINUTES', 15, 1, 7 * 24 * 60),
  STEP_UP_CLASSIFICATIONS: stepUpClassifications,
  MFA_REQUIRED_ROLES: roleList,
  MFA_FOR_CLEARED: flag('MFA_FOR_CLEARED', false),
});
