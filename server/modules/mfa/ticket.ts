import { randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';

import type { Db } from '#server/db/client.ts';
import { type SessionMethod, sessions, type UserRow, users } from '#server/db/schema/index.ts';
import { forbidden, unauthorized } from '#server/lib/errors.ts';
import { isUuid } from '#server/lib/ids.ts';
import { refusalFor, type Tokens } from '#server/plugins/auth.ts';

/** How long the second-factor step of a sign-in may take. */
export const TICKET_LIFETIME = '5m';

/**
 * The proof of a sign-in's first factor, while the second is asked for (decision 064): a JWT signed with the portal's
 * key, 5 minutes long. `sid` is the id the session will have: the session it starts takes that id, so a used ticket
 * cannot start a second session (the sessions table's primary key), and it does not outlive its session start. `sv`
 * is the account's sessions version: "sign out of all devices", a password change or an admin's reset voids it.
 */
export interface SecondFactorTicket {
  purpose: 'second-factor';
  sub: string;
  /** The first factor: the portal's password, the lab's directory, single sign-on. */
  method: SessionMethod;
  sv: number;
  sid: string;
  /** The provider's ID token of a single sign-on, carried to the session (RP-initiated logout). */
  ssoIdToken?: string;
}

/** Signs the ticket of a person who passed the first factor `method`. */
export function signTicket(
  tokens: Pick<Tokens, 'sign'>,
  user: Pick<UserRow, 'id' | 'sessionsValidAfter'>,
  method: SessionMethod,
  ssoIdToken?: string | null,
): string {
  const payload: SecondFactorTicket = {
    purpose: 'second-factor',
    sub: user.id,
    method,
    sv: user.sessionsValidAfter.getTime(),
    sid: randomUUID(),
    ...(ssoIdToken ? { ssoIdToken } : {}),
  };
  return tokens.sign(payload, { expiresIn: TICKET_LIFETIME });
}

const invalid = () => unauthorized('auth.second_factor_ticket_invalid');

/**
 * Checks a ticket and loads its person: signed by us, unexpired, made for the second factor, its account still
 * allowed to sign in with the same sessions version, and its session not started yet. Throws 401
 * `auth.second_factor_ticket_invalid` otherwise (the web goes back to the password), or the account's refusal.
 */
export async function verifyTicket(
  db: Db,
  tokens: Pick<Tokens, 'verify'>,
  ticket: string,
): Promise<{ payload: SecondFactorTicket; user: UserRow }> {
  let payload: Partial<SecondFactorTicket>;
  try {
    payload = tokens.verify<SecondFactorTicket>(ticket);
  } catch {
    throw invalid();
  }
  if (payload.purpose !== 'second-factor' || !isUuid(payload.sub) || !isUuid(payload.sid)) throw invalid();
  if (payload.method !== 'password' && payload.method !== 'directory' && payload.method !== 'sso') throw invalid();
  const [user] = await db.select().from(users).where(eq(users.id, payload.sub)).limit(1);
  if (!user || user.sessionsValidAfter.getTime() !== payload.sv) throw invalid();
  const refusal = refusalFor(user);
  if (refusal) throw forbidden(refusal.code, refusal.params, { status: refusal.status });
  const [started] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, payload.sid)).limit(1);
  if (started) throw invalid();
  return { payload: payload as SecondFactorTicket, user };
}
