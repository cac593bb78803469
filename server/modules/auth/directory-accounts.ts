import { and, eq, isNull, sql } from 'drizzle-orm';

import type { DirectoryRole, LdapConfig } from '#server/config.ts';
import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import { sessions, type UserRow, users } from '#server/db/schema/index.ts';
import { forbidden, unauthorized } from '#server/lib/errors.ts';
import { accessChanges, roleWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import type { AuditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { portalWho, recordUserChanges } from '#server/modules/audit-trail/user-changes.ts';
import { listGroups } from '#server/modules/groups/groups.service.ts';
import { firstLabId } from '#server/modules/labs/labs.queries.ts';
import { toActor } from '#server/plugins/auth.ts';

import { authPolicy } from './auth.policy.ts';
import {
  checkPassword,
  describePerson,
  type DirectoryPerson,
  findEntry,
  readEntry,
  withLookupAccount,
} from './directory.ts';
import { mayMoveToEntry, refuseMailCollision } from './directory-collision.ts';
import { notifyRegistration } from './registration-notice.ts';

/**
 * Directory accounts (decision 062): the sign-in of a person of the lab's directory, and the
 * accounts it makes and keeps in step with the directory. The directory decides who may sign in (a mapped group,
 * not disabled) and their role and research group; the portal keeps no directory password.
 */

/**
 * Whether the directory alone gives this account its access: an account the directory approved (no admin did). An
 * account an admin approved (a person no mapped group held at first sign-in) keeps the admin's role when the
 * directory maps none; one the directory approved loses its access with its last mapped group.
 */
const roleFromDirectory = (user: Pick<UserRow, 'approvedBy'>) => user.approvedBy === null;

/** The role the directory now gives, when it gives one other than the account's (a change to write), else undefined. */
const roleChangedTo = (user: Pick<UserRow, 'role'>, mapped: DirectoryRole | null) =>
  mapped !== null && mapped !== user.role ? mapped : undefined;

/** The research group of `ref` (LDAP_GROUP_MAP's right side: the portal group's id or name), or undefined. */
async function resolveGroup(db: DbOrTx, ref: string | null): Promise<{ id: string; name: string } | null> {
  if (!ref) return null;
  const all = await listGroups(db);
  return all.find((g) => g.id === ref) ?? all.find((g) => g.name.toLowerCase() === ref.toLowerCase()) ?? null;
}

/** The ids of every portal group LDAP_GROUP_MAP names (the groups the directory owns the membership of). */
async function mappedGroupIds(db: DbOrTx, config: LdapConfig): Promise<Set<string>> {
  const all = await listGroups(db);
  const refs = config.groupMap.map((g) => g.group.toLowerCase());
  return new Set(all.filter((g) => refs.includes(g.id) || refs.includes(g.name.toLowerCase())).map((g) => g.id));
}

/** What the directory says of an existing account now: keep it (with these changes) or end its access. */
type Verdict =
  | { kind: 'ok'; mappedRole: DirectoryRole | null; groupId: string | null | undefined; groupName: string | null }
  | { kind: 'disabled' }
  | { kind: 'no_access' };

async function verdictFor(
  db: DbOrTx,
  config: LdapConfig,
  user: UserRow,
  person: DirectoryPerson | null,
): Promise<Verdict> {
  if (!person) return { kind: 'no_access' };
  if (person.disabled) return { kind: 'disabled' };
  if (!person.mappedRole && user.status === 'approved' && roleFromDirectory(user)) return { kind: 'no_access' };
  // The research group: the mapped one; none when the directory took the person out of every mapped group and the
  // account's group was one of those; otherwise unchanged (an admin's choice of a group the map does not name).
  const group = await resolveGroup(db, person.group);
  let groupId: string | null | undefined;
  if (group) groupId = group.id === user.groupId ? undefined : group.id;
  else if (user.groupId && (await mappedGroupIds(db, config)).has(user.groupId)) groupId = null;
  return { kind: 'ok', mappedRole: person.mappedRole, groupId, groupName: group?.name ?? null };
}

/**
 * Brings an existing account in step with the directory (in `tx`, with its activity row and the audit trail's events
 * of what changed of its access, `who` being the sign-in's client or the portal's own check): details, role, research
 * group; a pending account that a mapped group now holds is approved. Answers the updated row.
 */
async function applyChanges(
  tx: Tx,
  user: UserRow,
  person: DirectoryPerson,
  verdict: Extract<Verdict, { kind: 'ok' }>,
  who: AuditWho,
): Promise<UserRow> {
  // Data, not a permission: whether the directory's role differs from the stored one.
  const role = roleChangedTo(user, verdict.mappedRole);
  const approve = verdict.mappedRole !== null && user.status === 'pending';
  // A new email from the directory that another account already has stays unwritten (the unique index would refuse it).
  const newEmail = person.email && person.email !== user.email.toLowerCase() ? person.email : undefined;
  const emailFree =
    newEmail !== undefined &&
    (
      await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${newEmail}`)
        .limit(1)
    ).length === 0;
  const [updated] = await tx
    .update(users)
    .set({
      directoryDn: person.dn,
      directoryCheckedAt: new Date(),
      name: person.name || user.name,
      designation: person.title || user.designation,
      ...(emailFree ? { email: newEmail } : {}),
      ...(role ? { role } : {}),
      ...(verdict.groupId !== undefined ? { groupId: verdict.groupId } : {}),
      ...(approve ? { status: 'approved' as const, approvedAt: new Date(), statusReason: null } : {}),
    })
    .where(eq(users.id, user.id))
    .returning();
  if (approve) {
    await recordActivity(
      tx,
      null,
      'activity.directory_account_approved',
      { email: updated!.email, role: roleWord(updated!.role) },
      { type: 'user', id: user.id },
    );
  } else if (role || verdict.groupId !== undefined) {
    const changes = accessChanges(
      role ? { from: user.role, to: role } : null,
      verdict.groupId === undefined ? undefined : verdict.groupName,
    );
    await recordActivity(
      tx,
      null,
      'activity.directory_access_changed',
      { email: updated!.email, changes },
      { type: 'user', id: user.id },
    );
  }
  await recordUserChanges(tx, who, user, updated!, { via: 'directory' });
  return updated!;
}

/**
 * Ends every session of an account the directory no longer lets in (disabled, or out of every mapped group): its
 * session rows end and its sessions version moves, so its tokens answer 401 at the next request, with an activity row.
 */
export async function endDirectorySessions(db: Db, user: UserRow, why: 'disabled' | 'no_access'): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(sessions)
      .set({ endedAt: new Date() })
      .where(and(eq(sessions.userId, user.id), isNull(sessions.endedAt)))
      .returning({ id: sessions.id });
    await tx
      .update(users)
      .set({ sessionsValidAfter: new Date(), directoryCheckedAt: new Date() })
      .where(eq(users.id, user.id));
    if (ended.length) {
      await recordActivity(
        tx,
        null,
        why === 'disabled'
          ? 'activity.directory_sessions_ended_disabled'
          : 'activity.directory_sessions_ended_no_access',
        { email: user.email },
        { type: 'user', id: user.id },
      );
    }
    return ended.length;
  });
}

/**
 * The account of this directory entry: by its DN, else by its email. An account found by email that belongs to another
 * directory entry still in the directory is never taken (decision 094): the sign-in is refused with 409.
 */
async function accountOf(db: Db, config: LdapConfig, person: DirectoryPerson): Promise<UserRow | undefined> {
  const [byDn] = await db.select().from(users).where(eq(users.directoryDn, person.dn)).limit(1);
  if (byDn) return byDn;
  if (!person.email) return undefined;
  const [byEmail] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${person.email}`)
    .limit(1);
  if (byEmail?.authSource === 'directory' && !(await mayMoveToEntry(config, byEmail, person))) {
    return refuseMailCollision(db, byEmail, person);
  }
  return byEmail;
}

/** The first sign-in of a directory person: an approved account when their groups map to a role, else pending. */
async function createAccount(db: Db, person: DirectoryPerson, who: AuditWho): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const group = await resolveGroup(tx, person.group);
    const labId = await firstLabId(tx);
    const approved = person.mappedRole !== null;
    const [user] = await tx
      .insert(users)
      .values({
        email: person.email!,
        passwordHash: null,
        authSource: 'directory',
        directoryDn: person.dn,
        directoryCheckedAt: new Date(),
        name: person.name || person.email!,
        designation: person.title,
        role: person.mappedRole ?? 'employee',
        status: approved ? 'approved' : 'pending',
        approvedAt: approved ? new Date() : null,
        groupId: group?.id ?? null,
        labId,
      })
      .returning();
    await recordActivity(
      tx,
      user!,
      approved ? 'activity.directory_account_created' : 'activity.directory_account_pending',
      approved ? { email: user!.email, role: roleWord(user!.role) } : { email: user!.email },
      { type: 'user', id: user!.id },
    );
    await recordUserChanges(tx, who, null, user!, { via: 'directory' });
    if (!approved) await notifyRegistration(tx, user!.id);
    return user!;
  });
}

/**
 * The directory entry a login finds (POST /api/auth/login for a login that is not a local account), read with the
 * service account: null when none, or more than one, matches. 503 when the directory cannot be reached. Looked up
 * before the password is checked, so that the throttle counts the person's failures under the entry (decision 094).
 */
export async function findDirectoryPerson(config: LdapConfig, login: string): Promise<DirectoryPerson | null> {
  return withLookupAccount(config, async (client) => {
    const entry = await findEntry(client, config, login);
    return entry ? describePerson(client, config, entry) : null;
  });
}

/**
 * Signs a person in with the directory: the entry `findDirectoryPerson` found, its password checked by binding as
 * them, then their account made or brought in step. Refusals: 401 for an unknown login or a wrong password (the
 * throttle counts it), 403 with the directory's reason, 409 when the entry's mail is another directory account's
 * (claimAccount), 503 when the directory cannot be reached. Answers the account, which the caller still checks with
 * refusalFor (pending, …). What the directory changes of the account's access is in the audit trail under the
 * sign-in's client (`who`, no actor).
 */
export async function signInWithDirectory(
  db: Db,
  config: LdapConfig,
  person: DirectoryPerson | null,
  password: string,
  who: AuditWho,
): Promise<UserRow> {
  if (!person || !(await checkPassword(config, person.dn, password))) throw unauthorized('auth.invalid_credentials');
  const existing = await accountOf(db, config, person);
  if (existing && existing.authSource !== 'directory') throw forbidden('auth.directory_local_account');
  if (!existing) {
    if (person.disabled) throw forbidden('auth.directory_disabled');
    if (!person.email) throw forbidden('auth.directory_no_email');
    return createAccount(db, person, who);
  }
  const verdict = await verdictFor(db, config, existing, person);
  if (verdict.kind !== 'ok') {
    await endDirectorySessions(db, existing, verdict.kind);
    throw forbidden(verdict.kind === 'disabled' ? 'auth.directory_disabled' : 'auth.directory_no_access');
  }
  return db.transaction((tx) => applyChanges(tx, existing, person, verdict, who));
}

/**
 * Every other way in of an account linked to a directory entry (single sign-on, "stay signed in") asks the directory
 * first (decision 094): the entry is read again with the lookup account, and a person disabled there, gone from it, or
 * out of every mapped group is refused as the directory sign-in refuses them (403 `auth.directory_disabled` or
 * `auth.directory_no_access`, their sessions ended). 503 when the directory cannot be reached: nobody is let in whom it
 * might have shut out. Nothing to ask for an account without an entry, or without LDAP configured.
 */
export async function checkDirectoryStanding(db: Db, config: LdapConfig | undefined, user: UserRow): Promise<void> {
  if (!config || !user.directoryDn) return;
  const person = await withLookupAccount(config, async (client) => {
    const entry = await readEntry(client, config, user.directoryDn!);
    return entry ? describePerson(client, config, entry) : null;
  });
  const verdict = await verdictFor(db, config, user, person);
  if (verdict.kind === 'ok') return;
  await endDirectorySessions(db, user, verdict.kind);
  throw forbidden(verdict.kind === 'disabled' ? 'auth.directory_disabled' : 'auth.directory_no_access');
}

/**
 * One round of the directory check (every LDAP_CHECK_SECONDS): the directory accounts with a live session that were
 * not checked for that long are claimed (their `directory_checked_at` stamped in the claiming statement, rows another
 * node is claiming skipped), so several nodes never ask the directory about the same person in one period, and a node
 * that claims nobody opens no connection. Each is read again with the lookup account: one disabled, gone or out of
 * every mapped group has its sessions ended; a changed role or group is written. Answers how many were checked.
 */
export async function checkDirectoryAccounts(db: Db, config: LdapConfig, limit = 500): Promise<number> {
  const claimed = await db.execute<{ id: string }>(sql`
    update users set directory_checked_at = now()
    where id in (
      select u.id from users u
      where u.auth_source = 'directory' and u.status = 'approved' and u.directory_dn is not null
        and (u.directory_checked_at is null
             or u.directory_checked_at <= now() - make_interval(secs => ${config.checkSeconds}) + interval '200 milliseconds')
        and exists (select 1 from sessions s where s.user_id = u.id and s.ended_at is null and s.expires_at > now())
      order by u.directory_checked_at nulls first
      limit ${limit}
      for update skip locked)
    returning id`);
  const ids = claimed.rows.map((r) => r.id);
  if (!ids.length) return 0;
  await withLookupAccount(config, async (client) => {
    for (const id of ids) {
      const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      if (!user?.directoryDn) continue;
      const entry = await readEntry(client, config, user.directoryDn);
      const person = entry ? await describePerson(client, config, entry) : null;
      const verdict = await verdictFor(db, config, user, person);
      if (verdict.kind !== 'ok') await endDirectorySessions(db, user, verdict.kind);
      else if (roleChangedTo(user, verdict.mappedRole) || verdict.groupId !== undefined)
        await db.transaction((tx) => applyChanges(tx, user, person!, verdict, portalWho));
    }
  });
  return ids.length;
}

/**
 * The portal's own password check under LDAP_ONLY: only admins (the break-glass accounts) may still use it. Throws
 * the coded refusal for anyone else.
 */
export function checkLocalSignInAllowed(config: LdapConfig | undefined, user: UserRow): void {
  authPolicy.authorize(toActor(user), 'auth.local_password_sign_in', { ldapOnly: config?.only ?? false });
}
