import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';
import type {
  AcknowledgedDocumentKind,
  AcknowledgementAudienceJson,
  AcknowledgementSettings,
  AcknowledgementStatus,
  ItemAcknowledgementJson,
  MyAcknowledgementJson,
} from '#shared/schemas/acknowledgements.ts';

import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import { type AcknowledgementRequestRow, acknowledgementRequests, acknowledgements } from '#server/db/schema/index.ts';
import { badRequest, conflict, notFound } from '#server/lib/errors.ts';
import { activityWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type AuditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { groups } from '#server/modules/groups/groups.view.ts';
import { notifyEach } from '#server/modules/notifications/notifications.service.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { type DocumentColumns, documentColumns, presentDocument, withDocument } from './acknowledgements.documents.ts';
import { acknowledgementsPolicy, type Audience, audienceMembers } from './acknowledgements.policy.ts';
import { ACKNOWLEDGEMENT_SUBJECT } from './acknowledgements.reminders.ts';

/**
 * Circulars and notices that must be acknowledged (decision 073): publishing a request with its
 * notice or circular (inside the item's own write), the `acknowledgement` of the items' JSON, and each person's own
 * rows (the "To acknowledge" list, the badge, opening and acknowledging).
 */

/** The notice or circular a request is published with, as the lab and group item services know it. */
export interface AcknowledgedItem {
  owner: { type: 'lab' } | { type: 'group'; groupId: string };
  itemId: string;
  kind: AcknowledgedDocumentKind;
  name: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Whole days from `from` to `to` (YYYY-MM-DD). */
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/**
 * The audience the settings name, with the defaults filled in: the whole lab for a lab item, the item's own group for
 * a group item. A group item asks only its own group (decision 073): its file opens only for members (decision 006).
 */
async function resolveAudience(tx: DbOrTx, item: AcknowledgedItem, s: AcknowledgementSettings): Promise<Audience> {
  if (item.owner.type === 'group') {
    const own = item.owner.groupId;
    const scope = s.audienceScope ?? 'groups';
    if (scope === 'lab') throw badRequest('acknowledgements.audience_outside_group', 'audienceScope');
    if (scope === 'groups' && s.audienceGroups.some((g) => g !== own))
      throw badRequest('acknowledgements.audience_outside_group', 'audienceGroups');
    return { scope, groups: [own], roles: scope === 'roles' ? s.audienceRoles : [] };
  }
  const scope = s.audienceScope ?? 'lab';
  if (scope === 'groups') {
    const found = await tx.select({ id: groups.id }).from(groups).where(inArray(groups.id, s.audienceGroups));
    if (found.length !== s.audienceGroups.length)
      throw badRequest('acknowledgements.audience_groups_not_found', 'audienceGroups');
    return { scope, groups: [...s.audienceGroups].sort(), roles: [] };
  }
  return { scope, groups: [], roles: scope === 'roles' ? s.audienceRoles : [] };
}

/**
 * Publishes the acknowledgement request of a notice or circular, inside the transaction that writes the item: the
 * audience is fixed now (one row per approved person but the publisher, due on the deadline) and the activity log
 * says so. An audience with nobody in it is refused, and the item with it. Callers check that the actor may publish
 * the item (the lab's and the group's item rules).
 */
export async function publishAcknowledgement(
  tx: Tx,
  actor: Actor,
  item: AcknowledgedItem,
  settings: AcknowledgementSettings & { acknowledgeBy: string },
): Promise<void> {
  const audience = await resolveAudience(tx, item, settings);
  const [request] = await tx
    .insert(acknowledgementRequests)
    .values({
      ...(item.owner.type === 'lab' ? { labItemId: item.itemId } : { groupItemId: item.itemId }),
      deadline: settings.acknowledgeBy,
      spanDays: Math.max(0, daysBetween(todayInIndia(), settings.acknowledgeBy)),
      scope: audience.scope,
      audienceGroups: audience.groups,
      audienceRoles: audience.roles,
      publishedBy: actor.id,
    })
    .returning({ id: acknowledgementRequests.id });
  const added = await tx.execute<{ n: number }>(sql`
    with added as (
      insert into ${acknowledgements} (request_id, user_id, group_id, due_on)
      select ${request!.id}, ${users.id}, ${users.groupId}, ${settings.acknowledgeBy}::date
      from ${users}
      where ${audienceMembers(audience)} and ${users.id} <> ${actor.id}
      on conflict do nothing
      returning 1
    )
    select count(*)::int as n from added`);
  const n = added.rows[0]?.n ?? 0;
  if (!n) throw badRequest('acknowledgements.audience_empty', 'audienceScope');
  // Its audience is told at publishing, under the bell and by mail by their choice (decision 081).
  await notifyEach(tx, {
    kind: 'acknowledgement_requested',
    subjectType: ACKNOWLEDGEMENT_SUBJECT,
    recipients: sql`select a.user_id, a.id as subject_id, a.id as source_id, ${actor.id}::uuid as actor_id
      from ${acknowledgements} a where a.request_id = ${request!.id}`,
  });
  await recordActivity(
    tx,
    actor,
    'activity.acknowledgement_requested',
    { count: n, kind: activityWord(item.kind), name: item.name, byDate: settings.acknowledgeBy },
    { type: 'acknowledgement-request', id: request!.id },
  );
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * What an item's create or edit does with its acknowledgement settings, inside the item's write. Create: publishes
 * when asked. Edit: publishes when asked for the first time; a published request is kept as it is, and asking to
 * change or withdraw it is refused (409 `acknowledgements.fixed_at_publishing`, decision 073) — sending back the same
 * deadline and audience is not a change. Settings left out (`requiresAcknowledgement` undefined) change nothing.
 */
export async function applyAcknowledgementSettings(
  tx: Tx,
  actor: Actor,
  item: AcknowledgedItem,
  settings: AcknowledgementSettings | undefined,
): Promise<void> {
  if (settings?.requiresAcknowledgement === undefined) return;
  const [existing] = await tx
    .select()
    .from(acknowledgementRequests)
    .where(
      item.owner.type === 'lab'
        ? eq(acknowledgementRequests.labItemId, item.itemId)
        : eq(acknowledgementRequests.groupItemId, item.itemId),
    )
    .limit(1);
  if (!existing) {
    if (!settings.requiresAcknowledgement || !settings.acknowledgeBy) return;
    // An edit's fields let a past deadline through (acknowledgementEditFieldsInput); a new request may not have one.
    if (settings.acknowledgeBy < todayInIndia()) throw badRequest('acknowledgements.deadline_past', 'acknowledgeBy');
    await publishAcknowledgement(tx, actor, item, { ...settings, acknowledgeBy: settings.acknowledgeBy });
    return;
  }
  if (!settings.requiresAcknowledgement)
    throw conflict('acknowledgements.fixed_at_publishing', 'requiresAcknowledgement');
  const asked = await resolveAudience(tx, item, settings);
  const same =
    settings.acknowledgeBy === existing.deadline &&
    asked.scope === existing.scope &&
    sameList(asked.groups, existing.audienceGroups) &&
    sameList(asked.roles, existing.audienceRoles);
  if (!same) throw conflict('acknowledgements.fixed_at_publishing', 'acknowledgeBy');
}

/** The names of these groups (an audience's), by id; a group deleted since is left out. */
export async function groupNames(db: DbOrTx, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db.select({ id: groups.id, name: groups.name }).from(groups).where(inArray(groups.id, unique));
  return new Map(rows.map((g) => [g.id, g.name]));
}

/** A request's audience as the API answers it, its groups named by `names` (groupNames). */
export const presentAudience = (
  r: Pick<AcknowledgementRequestRow, 'scope' | 'audienceGroups' | 'audienceRoles'>,
  names: Map<string, string>,
): AcknowledgementAudienceJson => ({
  scope: r.scope,
  groups: r.audienceGroups.flatMap((id) => (names.has(id) ? [{ _id: id, name: names.get(id)! }] : [])),
  roles: r.audienceRoles,
});

/**
 * The `acknowledgement` of these lab or group items (notices and circulars; others have none): their requests'
 * deadlines and audiences, by item id. Anyone who may see the items may see this.
 */
export async function itemAcknowledgements(
  db: DbOrTx,
  owner: 'lab' | 'group',
  itemIds: string[],
): Promise<Map<string, ItemAcknowledgementJson>> {
  const out = new Map<string, ItemAcknowledgementJson>();
  if (!itemIds.length) return out;
  const itemColumn = owner === 'lab' ? acknowledgementRequests.labItemId : acknowledgementRequests.groupItemId;
  const rows = await db.select().from(acknowledgementRequests).where(inArray(itemColumn, itemIds));
  if (!rows.length) return out;
  const names = await groupNames(
    db,
    rows.flatMap((r) => r.audienceGroups),
  );
  for (const r of rows) {
    out.set((owner === 'lab' ? r.labItemId : r.groupItemId)!, {
      _id: r.id,
      deadline: r.deadline,
      audience: presentAudience(r, names),
      publishedAt: r.publishedAt.toISOString(),
    });
  }
  return out;
}

/** The items with their `acknowledgement` (itemAcknowledgements), for the lab's and the groups' presenters. */
export async function withItemAcknowledgements<T extends { id: string; kind: string }>(
  db: DbOrTx,
  owner: 'lab' | 'group',
  items: T[],
): Promise<(T & { acknowledgement: ItemAcknowledgementJson | null })[]> {
  const ids = items.filter((i) => i.kind === 'notice' || i.kind === 'circular').map((i) => i.id);
  const found = await itemAcknowledgements(db, owner, ids);
  return items.map((i) => ({ ...i, acknowledgement: found.get(i.id) ?? null }));
}

// ---- the person's own rows ------------------------------------------------------------------------------------

const rowColumns = {
  id: acknowledgements.id,
  userId: acknowledgements.userId,
  requestId: acknowledgements.requestId,
  dueOn: acknowledgements.dueOn,
  openedAt: acknowledgements.openedAt,
  acknowledgedAt: acknowledgements.acknowledgedAt,
  ...documentColumns,
};
type OwnRow = DocumentColumns & {
  id: string;
  userId: string;
  requestId: string;
  dueOn: string;
  openedAt: Date | null;
  acknowledgedAt: Date | null;
};

const statusFilter = (actor: Actor, status: AcknowledgementStatus) =>
  and(
    eq(acknowledgements.userId, actor.id),
    status === 'pending' ? isNull(acknowledgements.acknowledgedAt) : isNotNull(acknowledgements.acknowledgedAt),
  );

function presentOwn(r: OwnRow, today: string): MyAcknowledgementJson {
  return {
    _id: r.id,
    document: presentDocument(r),
    dueOn: r.dueOn,
    overdue: r.acknowledgedAt === null && r.dueOn < today,
    openedAt: r.openedAt?.toISOString() ?? null,
    acknowledgedAt: r.acknowledgedAt?.toISOString() ?? null,
  };
}

/**
 * The actor's own rows, a page at a time: pending ones by due date (overdue first, as their dates are the oldest),
 * acknowledged ones newest first. Any signed-in person, for themselves.
 */
export async function listMyAcknowledgements(
  db: DbOrTx,
  actor: Actor,
  query: { status: AcknowledgementStatus; limit: number; offset: number },
): Promise<MyAcknowledgementJson[]> {
  const order =
    query.status === 'pending'
      ? [asc(acknowledgements.dueOn), asc(acknowledgements.addedAt), asc(acknowledgements.id)]
      : [desc(acknowledgements.acknowledgedAt), desc(acknowledgements.id)];
  const rows = await withDocument(
    db
      .select(rowColumns)
      .from(acknowledgements)
      .innerJoin(acknowledgementRequests, eq(acknowledgementRequests.id, acknowledgements.requestId)),
  )
    .where(statusFilter(actor, query.status))
    .orderBy(...order)
    .limit(query.limit)
    .offset(query.offset);
  const today = todayInIndia();
  return (rows as OwnRow[]).map((r) => presentOwn(r, today));
}

/** How many rows the list above has in all (its paging header). */
export async function countMyAcknowledgements(db: DbOrTx, actor: Actor, status: AcknowledgementStatus) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(acknowledgements)
    .where(statusFilter(actor, status));
  return row?.n ?? 0;
}

/**
 * The header badge: the actor's rows not yet acknowledged, and how many of them are overdue. One read of the partial
 * index acknowledgements_user_pending_idx (the index alone answers it).
 */
export async function countMyPending(db: DbOrTx, actor: Actor, today = todayInIndia()) {
  const [row] = await db
    .select({
      pending: sql<number>`count(*)::int`,
      overdue: sql<number>`(count(*) filter (where ${acknowledgements.dueOn} < ${today}::date))::int`,
    })
    .from(acknowledgements)
    .where(and(eq(acknowledgements.userId, actor.id), isNull(acknowledgements.acknowledgedAt)));
  return { pending: row?.pending ?? 0, overdue: row?.overdue ?? 0 };
}

/** One row with what its refusals and records need, locked for the write; someone else's is not found. */
async function lockOwnRow(tx: Tx, actor: Actor, id: string) {
  const [row] = await withDocument(
    tx
      .select(rowColumns)
      .from(acknowledgements)
      .innerJoin(acknowledgementRequests, eq(acknowledgementRequests.id, acknowledgements.requestId)),
  )
    .where(eq(acknowledgements.id, id))
    .limit(1)
    .for('update', { of: acknowledgements });
  if (!row) throw notFound('acknowledgements.not_found');
  const own = row as OwnRow;
  acknowledgementsPolicy.authorize(actor, 'acknowledgements.own', own);
  return own;
}

/**
 * Marks that the person opened the document of their row (the web calls it as they click to open it): the first
 * time is kept and logged, later ones change nothing. Their own row only.
 */
export async function openAcknowledgement(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockOwnRow(tx, actor, id);
    if (row.openedAt) return;
    await tx.update(acknowledgements).set({ openedAt: new Date() }).where(eq(acknowledgements.id, id));
    const doc = presentDocument(row);
    await recordActivity(
      tx,
      actor,
      'activity.acknowledgement_opened',
      { kind: activityWord(doc.kind), name: doc.name },
      { type: 'acknowledgement', id },
    );
  });
}

/**
 * Acknowledges the person's row, after they opened its document (else 409 `acknowledgements.open_first`). Recorded in
 * the audit trail (`acknowledged`) and the activity log in the same transaction. A second acknowledge answers the
 * first time and records nothing more (decision 074). Their own row only.
 */
export async function acknowledge(db: Db, actor: Actor, who: AuditWho, id: string): Promise<Date> {
  return db.transaction(async (tx) => {
    const row = await lockOwnRow(tx, actor, id);
    if (row.acknowledgedAt) return row.acknowledgedAt;
    acknowledgementsPolicy.authorize(actor, 'acknowledgements.acknowledge', row);
    const [done] = await tx
      .update(acknowledgements)
      .set({ acknowledgedAt: sql`now()` })
      .where(eq(acknowledgements.id, id))
      .returning({ at: acknowledgements.acknowledgedAt });
    const doc = presentDocument(row);
    await recordAudit(tx, who, {
      action: 'acknowledged',
      object: { type: `${doc.owner.type}-${doc.kind}`, id: doc._id, label: doc.name },
      outcome: 'success',
      details: { acknowledgement: id, request: row.requestId, dueOn: row.dueOn, late: row.dueOn < todayInIndia() },
    });
    await recordActivity(
      tx,
      actor,
      'activity.acknowledged',
      { kind: activityWord(doc.kind), name: doc.name },
      { type: 'acknowledgement', id },
    );
    return done!.at!;
  });
}
