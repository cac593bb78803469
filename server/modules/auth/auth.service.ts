import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';

import type { RegisterInput } from '#shared/schemas/auth.ts';
import type { registerInput } from '#shared/schemas/auth.ts';

import type { LdapConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { type SessionMethod, sessions, type UserRow, users } from '#server/db/schema/index.ts';
import { conflict, forbidden, unauthorized } from '#server/lib/errors.ts';
import { isUuid } from '#server/lib/ids.ts';
import { hashPassword, passwordMatches, spendPasswordCheck } from '#server/lib/passwords.ts';
import type { RequestClient } from '#server/lib/request-client.ts';
import { roleWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type AuditWho, recordAudit, whoAt } from '#server/modules/audit-trail/audit-trail.ts';
import { userObject } from '#server/modules/audit-trail/user-changes.ts';
import { findUserByEmail } from '#server/modules/users/users.queries.ts';
import { type Actor, refusalFor, type Tokens } from '#server/plugins/auth.ts';

import { type DirectoryPerson, entryKey } from './directory.ts';
import { checkLocalSignInAllowed, findDirectoryPerson, signInWithDirectory } from './directory-accounts.ts';
import { notifyRegistration } from './registration-notice.ts';
import { loginKey } from './throttle.ts';

type RegisterData = z.output<typeof registerInput>;
export type { RegisterInput };

/** Registers a new member of staff, pending until an admin approves them. Anyone may call it. */
export async function registerUser(db: Db, input: RegisterData): Promise<UserRow> {
  if (await findUserByEmail(db, input.email)) throw conflict('auth.user_exists', 'email');
  const passwordHash = await hashPassword(input.password);
  const { personalDetails: p, professionalDetails: q, employmentPeriod: e } = input;
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        email: input.email,
        passwordHash,
        role: input.role,
        status: 'pending',
        about: input.about,
        name: p.name,
        dob: p.dob,
        mobile: p.mobile,
        address: p.address,
        designation: q.designation,
        cadre: q.cadre,
        intercom: q.intercom,
        internetEmail: q.internetEmail,
        dronaEmail: q.dronaEmail,
        pis: q.pis,
        aebasId: q.aebasId,
        employmentFrom: e.from,
        employmentTo: e.to,
      })
      .onConflictDoNothing()
      .returning();
    if (!user) throw conflict('auth.user_exists', 'email');
    await notifyRegistration(tx, user.id);
    await recordActivity(
      tx,
      user,
      'activity.registered',
      { email: user.email, role: roleWord(user.role) },
      { type: 'user', id: user.id },
    );
    return user;
  });
}

/**
 * Checks an email and password. Wrong credentials get one message whichever was wrong; accounts that are pending,
 * rejected or deactivated are told why (decision 003).
 */
export async function verifyLogin(db: Db, email: string, password: string): Promise<UserRow> {
  const user = await findUserByEmail(db, email);
  if (!user) {
    await spendPasswordCheck(password);
    throw unauthorized('auth.invalid_credentials');
  }
  // An account of the lab's directory or single sign-on has no portal password: the same refusal as a wrong one.
  if (!(await passwordMatches(user.passwordHash, password))) throw unauthorized('auth.invalid_credentials');
  const refusal = refusalFor(user);
  if (refusal) throw forbidden(refusal.code, refusal.params, { status: refusal.status });
  return user;
}

/**
 * Whom a login names, looked up before its password is checked (decision 094): a local account (or any login without
 * LDAP configured), else the directory entry the login finds (or none). `key` is the sign-in throttle's account: the
 * entry's (every form of its uid or mail alike), else the login typed.
 */
export type SignInSubject =
  | { kind: 'local'; login: string; key: string }
  | { kind: 'directory'; login: string; key: string; person: DirectoryPerson | null };

/**
 * Looks a login up (POST /api/auth/login): see SignInSubject. The login is normalised first (NFKC, lower case:
 * loginKey), so that the portal and the directory find the same person for every form of it. 503 when the directory
 * cannot be reached.
 */
export async function findSignInSubject(db: Db, ldap: LdapConfig | undefined, typed: string): Promise<SignInSubject> {
  const login = loginKey(typed);
  const local = ldap ? await findUserByEmail(db, login) : undefined;
  if (!ldap || (local && local.authSource !== 'directory')) return { kind: 'local', login, key: login };
  const person = await findDirectoryPerson(ldap, login);
  return { kind: 'directory', login, key: person ? entryKey(person.dn) : login, person };
}

/** The sign-in throttle's account of a signed-in person (a step-up): their directory entry's, else their email. */
export const throttleKeyOf = (user: Pick<UserRow, 'authSource' | 'directoryDn' | 'email'>) =>
  user.authSource === 'directory' && user.directoryDn ? entryKey(user.directoryDn) : user.email;

/**
 * The sign-in of POST /api/auth/login (decision 062) of a subject findSignInSubject found: a local account checks the
 * portal's password, and under LDAP_ONLY only an admin may; a directory entry binds. The same refusals either way: 401
 * for wrong credentials (throttled), 403 with why.
 */
export async function signInWithPassword(
  db: Db,
  ldap: LdapConfig | undefined,
  subject: SignInSubject,
  password: string,
  who: AuditWho,
): Promise<{ user: UserRow; method: SessionMethod }> {
  if (subject.kind === 'local' || !ldap) {
    const user = await verifyLogin(db, subject.login, password);
    checkLocalSignInAllowed(ldap, user);
    return { user, method: 'password' };
  }
  const user = await signInWithDirectory(db, ldap, subject.person, password, who);
  const refusal = refusalFor(user);
  if (refusal) throw forbidden(refusal.code, refusal.params, { status: refusal.status });
  return { user, method: 'directory' };
}

/**
 * Ends the session of this token (sign-out): its row is marked ended, so the token is refused from then on. An invalid
 * or expired token needs nothing. Anyone may call it with their own token. The audit trail records the sign-out. Answers the provider's ID token of a single
 * sign-on session (for RP-initiated logout, decision 063), else null.
 */
export async function revokeSession(
  db: Db,
  tokens: Pick<Tokens, 'verify'>,
  client: RequestClient,
  token: string,
): Promise<{ ssoIdToken: string | null }> {
  let payload: { sub?: unknown; sid?: unknown };
  try {
    payload = tokens.verify(token);
  } catch {
    return { ssoIdToken: null };
  }
  const { sub, sid } = payload;
  if (!isUuid(sid) || !isUuid(sub)) return { ssoIdToken: null };
  return db.transaction(async (tx) => {
    const [ended] = await tx
      .update(sessions)
      .set({ endedAt: new Date() })
      .where(and(eq(sessions.id, sid), eq(sessions.userId, sub), isNull(sessions.endedAt)))
      .returning({ id: sessions.id, ssoIdToken: sessions.ssoIdToken });
    if (!ended) return { ssoIdToken: null };
    const [user] = await tx
      .select({ id: users.id, name: users.name, email: users.email, role: users.role })
      .from(users)
      .where(eq(users.id, sub))
      .limit(1);
    if (user) {
      await recordActivity(tx, user, 'activity.signed_out');
      await recordAudit(tx, whoAt(client, user), { action: 'sign_out', object: userObject(user), outcome: 'success' });
    }
    return { ssoIdToken: ended.ssoIdToken };
  });
}

/**
 * "Stay signed in" (decision 019): ends the session of `token` and starts a new one for `user`, in one transaction
 * with its activity row, so the old token answers 401 from then on. The new session keeps the old one's method, second
 * factor and proof time (a refresh proves nothing new). Of two refreshes of one token only one ends its row and gets a
 * new token; the other is told the session expired. The caller has already authenticated `token` (the root hook), so
 * `user` is its approved, active owner.
 */
export async function refreshSession(
  db: Db,
  tokens: Pick<Tokens, 'decode' | 'startSession'>,
  client: RequestClient,
  token: string,
  user: UserRow,
): Promise<string> {
  const { sid } = tokens.decode<{ sid: string }>(token) ?? {};
  if (!isUuid(sid)) throw unauthorized('auth.session_expired');
  return db.transaction(async (tx) => {
    const [ended] = await tx
      .update(sessions)
      .set({ endedAt: new Date() })
      .where(and(eq(sessions.id, sid), eq(sessions.userId, user.id), isNull(sessions.endedAt)))
      .returning();
    if (!ended) throw unauthorized('auth.session_expired');
    await recordActivity(tx, user, 'activity.stayed_signed_in');
    return tokens.startSession(tx, user, client, {
      method: ended.method,
      secondFactor: ended.secondFactor,
      verifiedAt: ended.verifiedAt,
      ssoIdToken: ended.ssoIdToken,
    });
  });
}

/**
 * Ends every session of the account: its rows and its sessions version (decision 003), with the audit trail's `sign_out`
 * (every device). The signed-in owner calls it.
 */
export async function endAllSessions(db: Db, actor: Actor, who: AuditWho): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ sessionsValidAfter: new Date() }).where(eq(users.id, actor.id));
    await tx
      .update(sessions)
      .set({ endedAt: new Date() })
      .where(and(eq(sessions.userId, actor.id), isNull(sessions.endedAt)));
    await recordActivity(tx, actor, 'activity.signed_out_everywhere', undefined, { type: 'user', id: actor.id });
    await recordAudit(tx, who, {
      action: 'sign_out',
      object: userObject(actor),
      outcome: 'success',
      details: { sessions: 'all' },
    });
  });
}
