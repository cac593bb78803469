import type { AuditOutcome } from '#shared/audit.ts';

import type { DbOrTx } from '#server/db/client.ts';
import type { UserRow } from '#server/db/schema/index.ts';
import { AppError } from '#server/lib/errors.ts';
import type { RequestClient } from '#server/lib/request-client.ts';
import { findUserByEmail } from '#server/modules/users/users.queries.ts';

import { recordAudit, whoAt } from './audit-trail.ts';
import { userObject } from './user-changes.ts';

/**
 * The sign-in's events in the audit trail (decision 069): each names the account as its object, so the
 * object filter shows every attempt on one account, made by its owner or not. A password or a code is never written.
 */

type Person = Pick<UserRow, 'id' | 'name' | 'email' | 'role'>;

/** A refusal the client caused (a wrong password, a locked account, a refused account), not our own failure. */
const refusalOf = (err: unknown): AppError | null =>
  err instanceof AppError && err.statusCode < 500 && err.code !== 'audit.unavailable' ? err : null;

/** 429 and 403 refuse the attempt before or after the check; 400 and 401 are a proof that failed. */
const outcomeOf = (err: AppError): AuditOutcome =>
  err.statusCode === 429 || err.statusCode === 403 ? 'refused' : 'failure';

/** A session started (`sign_in`): in the transaction that starts it. */
export async function auditSignedIn(
  tx: DbOrTx,
  client: RequestClient,
  user: Person,
  details: { method: string; secondFactor: string | null },
): Promise<void> {
  await recordAudit(tx, whoAt(client, user), {
    action: 'sign_in',
    object: userObject(user),
    outcome: 'success',
    details,
  });
}

/**
 * A refused sign-in with a password (POST /api/auth/login): the login as typed in `details`, never the password. The
 * account it names, when there is one, is the object; its owner is the actor only when the refusal came after their
 * password was right (403: pending, rejected, deactivated, the directory's refusals), for then it was them. Errors
 * that are our own (5xx) are not a sign-in's outcome and are not recorded.
 */
export async function auditSignInFailed(db: DbOrTx, client: RequestClient, login: string, err: unknown): Promise<void> {
  const refusal = refusalOf(err);
  if (!refusal) return;
  const account = await findUserByEmail(db, login.trim());
  const proven = refusal.statusCode === 403 && account ? account : null;
  await recordAudit(db, whoAt(client, proven), {
    action: 'sign_in_failed',
    object: account ? userObject(account) : { type: 'login', id: login.trim().toLowerCase(), label: login.trim() },
    outcome: outcomeOf(refusal),
    details: { login: login.trim(), code: refusal.code },
  });
}

/**
 * A refused single sign-on where the provider named a person the portal knows (their account is pending, rejected or
 * deactivated, or cannot be linked): the account and the reason. Failures before the provider named anyone (a stale
 * state, a forged answer) have no person and are left to the request log.
 */
export async function auditSsoRefused(
  db: DbOrTx,
  client: RequestClient,
  account: Person | null,
  email: string | null,
  code: string,
): Promise<void> {
  if (!account && !email) return;
  await recordAudit(db, whoAt(client, account), {
    action: 'sign_in_failed',
    object: account ? userObject(account) : { type: 'login', id: email!, label: email },
    outcome: 'refused',
    details: { method: 'sso', ...(email ? { login: email } : {}), code },
  });
}

/**
 * A second factor or a step-up that did not pass: a wrong code, a passkey that did not verify, or the throttle's
 * wait. The person proved their first factor already, so they are the actor. Other errors are not recorded.
 */
export async function auditProofFailed(
  db: DbOrTx,
  client: RequestClient,
  user: Person,
  action: 'second_factor_failed' | 'step_up_failed',
  method: string,
  err: unknown,
): Promise<void> {
  const refusal = refusalOf(err);
  if (!refusal || (refusal.statusCode !== 400 && refusal.statusCode !== 429)) return;
  await recordAudit(db, whoAt(client, user), {
    action,
    object: userObject(user),
    outcome: outcomeOf(refusal),
    details: { method, code: refusal.code },
  });
}

/**
 * Runs a proof (`check`) and records its failure as `action` before the refusal goes on to the client. A failure to
 * record it (503) takes the refusal's place: the audit trail fails closed.
 */
export async function auditingProof<T>(
  db: DbOrTx,
  client: RequestClient,
  user: Person,
  action: 'second_factor_failed' | 'step_up_failed',
  method: string,
  check: () => Promise<T>,
): Promise<T> {
  try {
    return await check();
  } catch (err) {
    await auditProofFailed(db, client, user, action, method, err);
    throw err;
  }
}
