import { createHash, randomBytes } from 'node:crypto';

import { and, eq, lt, sql } from 'drizzle-orm';

import type { OidcConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { ssoExchangeCodes, type UserRow, users } from '#server/db/schema/index.ts';
import { badRequest, forbidden } from '#server/lib/errors.ts';
import { roleWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import type { AuditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { recordUserChanges } from '#server/modules/audit-trail/user-changes.ts';
import { findUserByEmail } from '#server/modules/users/users.queries.ts';

import { notifyRegistration } from './registration-notice.ts';
import type { SsoClaims } from './sso.client.ts';
import { recordSsoLinkChange, requestSsoLink } from './sso-links.service.ts';

/** How long the web app has to exchange the code of a finished single sign-on (decision 063). */
export const EXCHANGE_CODE_SECONDS = 60;

/** The portal role the provider's role claim maps to (OIDC_ROLE_MAP, first matching entry), or null. */
export function mappedRole(settings: OidcConfig, claims: SsoClaims) {
  if (!settings.roleClaim) return null;
  const raw = claims[settings.roleClaim];
  const values = new Set((Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string'));
  return settings.roleMap.find((entry) => values.has(entry.value))?.role ?? null;
}

/** The provider's own name of the person, when it gives one (a link request shows it to the admins). */
function providerName(claims: SsoClaims): string | null {
  if (typeof claims.name === 'string' && claims.name.trim()) return claims.name.trim().slice(0, 200);
  const parts = [claims.given_name, claims.family_name].filter((p): p is string => typeof p === 'string' && !!p.trim());
  return parts.length ? parts.join(' ').slice(0, 200) : null;
}

function displayName(claims: SsoClaims, email: string): string {
  return providerName(claims) ?? email.split('@')[0]!;
}

/**
 * The portal account of a person the provider signed in (decision 063), by the issuer's `sub` only:
 * - already linked: that account;
 * - first sign-in whose email the provider verified (`email_verified: true`) and matches an account not linked to
 *   another sign-in: that account is linked (activity row), keeping its password and source;
 * - no account with that email: a new `sso` account without a password, approved with the mapped role when the role
 *   claim maps (OIDC_ROLE_MAP), else pending the admin's approval (spec §4);
 * - an account with that email not linked to any subject, whose email the provider did not verify: a link request is
 *   recorded for the admins (decision 090), committed, and the person is refused with `auth.sso_link_requested`;
 * - an account with that email linked to another subject: refused (`auth.sso_email_in_use`).
 * The caller then checks that the account may sign in (refusalFor). Called by the SSO callback only; `who` is its client,
 * for the audit trail's events of an account the role mapping approves.
 */
export async function accountForSso(db: Db, settings: OidcConfig, claims: SsoClaims, who: AuditWho): Promise<UserRow> {
  const { iss: issuer, sub: subject } = claims;
  const [linked] = await db
    .select()
    .from(users)
    .where(and(eq(users.ssoIssuer, issuer), eq(users.ssoSubject, subject)))
    .limit(1);
  if (linked) return linked;

  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email) throw forbidden('auth.sso_no_email');
  // null: a link request was recorded (decision 090); it is committed with this transaction, then the person is refused.
  const account = await db.transaction(async (tx): Promise<UserRow | null> => {
    const existing = await findUserByEmail(tx, email);
    if (existing) {
      if (existing.ssoSubject !== null) throw forbidden('auth.sso_email_in_use');
      if (claims.email_verified !== true) {
        await requestSsoLink(tx, { issuer, subject, email, name: providerName(claims), userId: existing.id });
        return null;
      }
      const [row] = await tx
        .update(users)
        .set({ ssoIssuer: issuer, ssoSubject: subject, updatedAt: new Date() })
        .where(and(eq(users.id, existing.id), sql`${users.ssoSubject} is null`))
        .returning();
      if (!row) throw forbidden('auth.sso_email_in_use');
      await recordActivity(tx, row, 'activity.sso_linked', { issuer, email: row.email }, { type: 'user', id: row.id });
      // The provider vouched for the email: no person made the link (decision 090).
      await recordSsoLinkChange(tx, who, row, { from: null, to: issuer, subject, via: 'single_sign_on' });
      return row;
    }
    const role = mappedRole(settings, claims);
    const [created] = await tx
      .insert(users)
      .values({
        email,
        name: displayName(claims, email),
        passwordHash: null,
        authSource: 'sso',
        ssoIssuer: issuer,
        ssoSubject: subject,
        role: role ?? 'employee',
        status: role ? 'approved' : 'pending',
        approvedAt: role ? new Date() : null,
      })
      .onConflictDoNothing()
      .returning();
    // Two first sign-ins of one person at once: the other made the account.
    if (!created) throw forbidden('auth.sso_email_in_use');
    await recordActivity(
      tx,
      created,
      'activity.sso_registered',
      { email, role: roleWord(created.role) },
      { type: 'user', id: created.id },
    );
    // The role mapping grants access at once: the audit trail records it as a change from nothing (decision 069).
    await recordUserChanges(tx, who, null, created, { via: 'single_sign_on' });
    if (created.status === 'pending') await notifyRegistration(tx, created.id);
    return created;
  });
  if (!account) throw forbidden('auth.sso_link_requested');
  return account;
}

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

/** A one-time code for the web app to exchange for the session (its SHA-256 is kept, a minute). */
export async function createExchangeCode(db: Db, userId: string, idToken: string): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await db.delete(ssoExchangeCodes).where(lt(ssoExchangeCodes.expiresAt, new Date()));
  await db.insert(ssoExchangeCodes).values({
    codeHash: hashOf(code),
    userId,
    idToken,
    expiresAt: new Date(Date.now() + EXCHANGE_CODE_SECONDS * 1000),
  });
  return code;
}

/**
 * Redeems an exchange code: its row is deleted as it is read, so a code works once; an unknown, used or expired code
 * is refused (`auth.sso_code_invalid`).
 */
export async function redeemExchangeCode(db: Db, code: string): Promise<{ userId: string; idToken: string }> {
  const [row] = await db
    .delete(ssoExchangeCodes)
    .where(eq(ssoExchangeCodes.codeHash, hashOf(code)))
    .returning({
      userId: ssoExchangeCodes.userId,
      idToken: ssoExchangeCodes.idToken,
      expiresAt: ssoExchangeCodes.expiresAt,
    });
  if (!row || row.expiresAt.getTime() <= Date.now()) throw badRequest('auth.sso_code_invalid');
  return row;
}
