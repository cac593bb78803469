import type { DbOrTx } from '#server/db/client.ts';
import type { UserRow } from '#server/db/schema/index.ts';
import { groupNamesByIds } from '#server/modules/groups/groups.queries.ts';

import { type AuditWho, recordAudit } from './audit-trail.ts';

/** What of an account the audit trail follows: who it is, and what it may see (decision 069). */
export type TrackedUser = Pick<
  UserRow,
  'id' | 'name' | 'email' | 'role' | 'status' | 'classifiedClearance' | 'groupId'
>;

/** Where a change came from when no person made it in a screen: the lab's directory, or the single sign-on's mapping. */
export type ChangeSource = 'directory' | 'single_sign_on';

/** An event made by the portal itself (the directory check): no person, no browser. */
export const portalWho: AuditWho = { actor: null, address: null, userAgent: null };

/** The account as an event's object: its id, and its name and email as they are now (the object filter finds either). */
export const userObject = (user: Pick<UserRow, 'id' | 'name' | 'email'>) => ({
  type: 'user',
  id: user.id,
  label: `${user.name} (${user.email})`,
});

/**
 * Records in the audit trail what a write changed of an account's access, one event each: its role (`role_changed`),
 * its clearance for Confidential and Secret letters (`clearance_changed`), its research group (`group_changed`, with
 * the groups' names as they are now) and its status (`status_changed`), each naming the old and the new value in
 * `details`. Call it in the write's transaction with the row before and after: every place that changes these goes
 * through here, so none is left out by a scattered call. An account made already approved (by the directory or the
 * single sign-on's role mapping) counts as a change from nothing; one made pending gains no access and is not an event.
 */
export async function recordUserChanges(
  tx: DbOrTx,
  who: AuditWho,
  before: TrackedUser | null,
  after: TrackedUser,
  opts: { via?: ChangeSource; reason?: string | null } = {},
): Promise<void> {
  if (!before && after.status !== 'approved') return;
  const via = opts.via ? { via: opts.via } : {};
  const event = async (
    action: 'role_changed' | 'clearance_changed' | 'group_changed' | 'status_changed',
    details: object,
  ) => recordAudit(tx, who, { action, object: userObject(after), outcome: 'success', details: { ...details, ...via } });

  // Data, not a permission: the old and the new value of each column (a new account's start from nothing).
  const was = <K extends 'status' | 'role'>(key: K) => (before ? before[key] : null);
  const changed = <K extends 'status' | 'role'>(key: K) => was(key) !== after[key];
  if (changed('status')) {
    await event('status_changed', {
      from: was('status'),
      to: after.status,
      ...(opts.reason ? { reason: opts.reason } : {}),
    });
  }
  if (changed('role')) await event('role_changed', { from: was('role'), to: after.role });
  if ((before?.classifiedClearance ?? false) !== after.classifiedClearance) {
    await event('clearance_changed', { from: before?.classifiedClearance ?? false, to: after.classifiedClearance });
  }
  const fromGroup = before?.groupId ?? null;
  if (fromGroup !== after.groupId) {
    const ids = [fromGroup, after.groupId].filter((id): id is string => id !== null);
    const names = new Map((await groupNamesByIds(tx, ids)).map((g) => [g.id, g.name]));
    const named = (id: string | null) => (id ? { id, name: names.get(id) ?? null } : null);
    await event('group_changed', { from: named(fromGroup), to: named(after.groupId) });
  }
}
