import { and, asc, desc, eq, gte, inArray, isNull, lte, or } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';
import type { DelegationInput, DelegationJson } from '#shared/schemas/letter.ts';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { type DakDelegationRow, dakDelegations } from '#server/db/schema/index.ts';
import { badRequest, conflict, notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type AuditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { users, usersAs } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { lettersPolicy } from './letters.policy.ts';

/**
 * Delegation of dak (docs/decisions/078-dak-delegation.md): an officer, or an admin for them, names a
 * delegate for a range of India dates. While it runs the officer's inbox is also the delegate's, and what the delegate
 * does on those letters is recorded on behalf of the officer. It runs while today (India) is within its dates and it
 * has not been ended early: every read filters by the date, so it ends by itself, with no job.
 */

/** A delegation that runs on `today` (India date), as a WHERE condition. */
const runsOn = (today: string) =>
  and(isNull(dakDelegations.endedAt), lte(dakDelegations.fromDate, today), gte(dakDelegations.toDate, today))!;

/** The officers whose dak is delegated to this person today. */
export async function activeDelegators(db: DbOrTx, delegateId: string): Promise<string[]> {
  const rows = await db
    .select({ officerId: dakDelegations.officerId })
    .from(dakDelegations)
    .where(and(eq(dakDelegations.delegateId, delegateId), runsOn(todayInIndia())))
    .orderBy(asc(dakDelegations.createdAt));
  return [...new Set(rows.map((r) => r.officerId))];
}

const officer = usersAs('officer');
const delegate = usersAs('delegate');
const creator = usersAs('creator');

async function loadDelegations(db: DbOrTx, where: ReturnType<typeof and>): Promise<DelegationJson[]> {
  const today = todayInIndia();
  const rows = await db
    .select({
      d: dakDelegations,
      officerName: officer.name,
      delegateName: delegate.name,
      creatorName: creator.name,
    })
    .from(dakDelegations)
    .innerJoin(officer, eq(officer.id, dakDelegations.officerId))
    .innerJoin(delegate, eq(delegate.id, dakDelegations.delegateId))
    .leftJoin(creator, eq(creator.id, dakDelegations.createdBy))
    .where(where)
    .orderBy(asc(dakDelegations.fromDate), desc(dakDelegations.createdAt));
  return rows.map(({ d, officerName, delegateName, creatorName }) =>
    presentDelegation(d, officerName, delegateName, creatorName, today),
  );
}

function presentDelegation(
  d: DakDelegationRow,
  officerName: string,
  delegateName: string,
  creatorName: string | null,
  today = todayInIndia(),
): DelegationJson {
  return {
    _id: d.id,
    officer: { _id: d.officerId, name: officerName },
    delegate: { _id: d.delegateId, name: delegateName },
    fromDate: d.fromDate,
    toDate: d.toDate,
    createdBy: d.createdBy && creatorName !== null ? { _id: d.createdBy, name: creatorName } : null,
    createdAt: d.createdAt.toISOString(),
    endedAt: d.endedAt ? d.endedAt.toISOString() : null,
    active: !d.endedAt && d.fromDate <= today && today <= d.toDate,
  };
}

/**
 * GET /api/dac/delegations: the officer's delegations not yet over (running or to come), and those naming the actor
 * as delegate. The officer is the actor, or for an admin any officer (`officerId`).
 */
export async function listDelegations(db: Db, actor: Actor, officerId = actor.id) {
  lettersPolicy.authorize(actor, 'letters.delegate', { officerId });
  const [person] = await db.select({ id: users.id, name: users.name }).from(users).where(eq(users.id, officerId));
  if (!person) throw badRequest('letters.choose_officer_to_delegate', 'officerId');
  const today = todayInIndia();
  const open = and(isNull(dakDelegations.endedAt), gte(dakDelegations.toDate, today));
  const [given, received] = await Promise.all([
    loadDelegations(db, and(eq(dakDelegations.officerId, officerId), open)),
    loadDelegations(db, and(eq(dakDelegations.delegateId, officerId), open)),
  ]);
  return { officer: { _id: person.id, name: person.name }, given, received };
}

/**
 * POST /api/dac/delegations: names a delegate for the officer (the actor, or for an admin `officerId`) from one India
 * date to another. Not starting in the past, and not overlapping another of the officer's delegations (the officer's
 * row is locked, so two at once cannot both pass the check). Recorded in the activity log and the audit trail.
 */
export async function createDelegation(db: Db, actor: Actor, who: AuditWho, input: DelegationInput) {
  const officerId = input.officerId ?? actor.id;
  lettersPolicy.authorize(actor, 'letters.delegate', { officerId });
  const id = await db.transaction(async (tx) => {
    const [person] = await tx.select().from(users).where(eq(users.id, officerId)).for('update');
    if (!person) throw badRequest('letters.choose_officer_to_delegate', 'officerId');
    const [named] = await tx.select().from(users).where(eq(users.id, input.delegateId));
    if (!named) throw badRequest('letters.choose_delegate', 'delegateId');
    lettersPolicy.authorize(actor, 'letters.delegate_to', { officerId, delegate: named });
    if (input.fromDate < todayInIndia()) throw badRequest('letters.delegation_starts_past', 'fromDate');
    const [overlap] = await tx
      .select()
      .from(dakDelegations)
      .where(
        and(
          eq(dakDelegations.officerId, officerId),
          isNull(dakDelegations.endedAt),
          lte(dakDelegations.fromDate, input.toDate),
          gte(dakDelegations.toDate, input.fromDate),
        ),
      )
      .limit(1);
    if (overlap) {
      throw conflict('letters.delegation_overlaps', 'fromDate', {
        name: person.name,
        fromDate: overlap.fromDate,
        toDate: overlap.toDate,
      });
    }
    const [row] = await tx
      .insert(dakDelegations)
      .values({
        officerId,
        delegateId: named.id,
        fromDate: input.fromDate,
        toDate: input.toDate,
        createdBy: actor.id,
      })
      .returning();
    const params = { officer: person.name, delegate: named.name, fromDate: input.fromDate, toDate: input.toDate };
    await recordActivity(tx, actor, 'activity.dak_delegated', params, { type: 'user', id: officerId });
    await recordAudit(tx, who, {
      action: 'delegation_created',
      object: { type: 'user', id: officerId, label: person.name },
      outcome: 'success',
      details: { delegate: { id: named.id, name: named.name }, fromDate: input.fromDate, toDate: input.toDate },
    });
    return row!.id;
  });
  return (await loadDelegations(db, and(eq(dakDelegations.id, id))))[0]!;
}

/** POST /api/dac/delegations/{id}/end: the officer (or an admin) ends a delegation early, or withdraws one to come. */
export async function endDelegation(db: Db, actor: Actor, who: AuditWho, id: string) {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(dakDelegations).where(eq(dakDelegations.id, id)).for('update');
    // Someone who is neither the officer nor an admin is not told that it exists.
    if (!row || !lettersPolicy.allows(actor, 'letters.delegate', { officerId: row.officerId })) {
      throw notFound('letters.delegation_not_found');
    }
    if (row.endedAt || row.toDate < todayInIndia()) throw conflict('letters.delegation_already_ended');
    await tx.update(dakDelegations).set({ endedAt: new Date(), endedBy: actor.id }).where(eq(dakDelegations.id, id));
    const names = await tx
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(or(eq(users.id, row.officerId), eq(users.id, row.delegateId)));
    const name = (uid: string) => names.find((n) => n.id === uid)?.name ?? '';
    await recordActivity(
      tx,
      actor,
      'activity.dak_delegation_ended',
      { officer: name(row.officerId), delegate: name(row.delegateId) },
      { type: 'user', id: row.officerId },
    );
    await recordAudit(tx, who, {
      action: 'delegation_ended',
      object: { type: 'user', id: row.officerId, label: name(row.officerId) },
      outcome: 'success',
      details: {
        delegate: { id: row.delegateId, name: name(row.delegateId) },
        fromDate: row.fromDate,
        toDate: row.toDate,
      },
    });
  });
  return (await loadDelegations(db, and(eq(dakDelegations.id, id))))[0]!;
}

/** Names of people by id (the officers a delegate acts for). */
export async function namesOf(db: DbOrTx, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}
