import { and, eq, isNull, sql } from 'drizzle-orm';

import type { DbOrTx, Tx } from '#server/db/client.ts';
import {
  efileCopies,
  type EfileMovementRow,
  efileMovements,
  efileParticipants,
  type EfileRow,
  efiles,
} from '#server/db/schema/index.ts';
import { notFound } from '#server/lib/errors.ts';
import { groupsLedBy } from '#server/modules/groups/groups.queries.ts';
import { activeDelegators } from '#server/modules/letters/letters.delegation.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { efilesPolicy, type Standing } from './efiles.policy.ts';

/** What the actor is to a file, loaded for the policy (decision 107). */
export interface Access extends Standing {
  file: EfileRow;
  /** The actor and the officers whose dak (and files) are delegated to them today (decision 078). */
  people: string[];
  /** The holder is the actor or an officer they stand in for. */
  holds: boolean;
  /** The sending that brought the file to its holder, if it is not yet received (in transit). */
  pending: EfileMovementRow | null;
}

export const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** The open sending of a file (sent or returned, neither received nor pulled back), if any. */
export async function pendingSending(db: DbOrTx, efileId: string): Promise<EfileMovementRow | null> {
  const [m] = await db
    .select()
    .from(efileMovements)
    .where(
      and(
        eq(efileMovements.efileId, efileId),
        sql`${efileMovements.kind} in ('sent', 'returned')`,
        isNull(efileMovements.receivedAt),
        isNull(efileMovements.pulledBackAt),
      ),
    )
    .limit(1);
  return m ?? null;
}

/** The actor's standing on a file, without the policy's verdict. */
export async function standingOn(db: DbOrTx, actor: Actor, file: EfileRow): Promise<Access> {
  const [[participant], [copy], led, standsFor, pending] = await Promise.all([
    db
      .select({ one: sql`1` })
      .from(efileParticipants)
      .where(and(eq(efileParticipants.efileId, file.id), eq(efileParticipants.userId, actor.id))),
    db
      .select({ one: sql`1` })
      .from(efileCopies)
      .where(and(eq(efileCopies.efileId, file.id), eq(efileCopies.userId, actor.id))),
    groupsLedBy(db, actor),
    activeDelegators(db, actor.id),
    pendingSending(db, file.id),
  ]);
  const people = [actor.id, ...standsFor];
  return {
    file,
    people,
    participant: Boolean(participant) || standsFor.includes(file.holderId),
    copy: Boolean(copy),
    head: led.includes(file.ownerGroupId),
    holds: people.includes(file.holderId),
    pending,
  };
}

/**
 * Loads a file the actor may see (404 otherwise), locking it for the write that follows when `lock` (every move locks
 * the file first, so two moves at once take turns and the second sees the first's outcome).
 */
export async function accessFile(db: DbOrTx, actor: Actor, id: string, lock = false): Promise<Access> {
  if (!isUuid(id)) throw notFound('efiles.not_found');
  const query = db.select().from(efiles).where(eq(efiles.id, id)).limit(1);
  const [file] = lock ? await query.for('update') : await query;
  if (!file) throw notFound('efiles.not_found');
  const access = await standingOn(db, actor, file);
  efilesPolicy.authorize(actor, 'efiles.view', { file, standing: access });
  return access;
}

/** As accessFile, for a write: locked, and a guarded classification needs a step-up (decision 095). */
export async function lockFile(tx: Tx, actor: Actor, id: string): Promise<Access> {
  const access = await accessFile(tx, actor, id, true);
  efilesPolicy.authorize(actor, 'efiles.open', { file: access.file });
  return access;
}

/** The actor may act on the file now (holder, received, open), else the policy's refusal is thrown. */
export function assertActs(actor: Actor, access: Access): void {
  efilesPolicy.authorize(actor, 'efiles.act', {
    file: access.file,
    holds: access.holds,
    received: access.pending === null,
    copy: access.copy,
  });
}

/** Adds people to those the file passed through (a repeat is ignored). */
export async function addParticipants(tx: DbOrTx, efileId: string, userIds: string[]): Promise<void> {
  if (!userIds.length) return;
  await tx
    .insert(efileParticipants)
    .values([...new Set(userIds)].map((userId) => ({ efileId, userId })))
    .onConflictDoNothing();
}
