import { and, asc, eq, inArray, isNull } from 'drizzle-orm';

import type { CreateEfileInput } from '#shared/schemas/efile.ts';
import { createEfileInput } from '#shared/schemas/efile.ts';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { efileItems, efileMovements, efileNotes, type EfileRow, efiles, users } from '#server/db/schema/index.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import {
  type ReadAction,
  type ReadContext,
  recordRead,
  refusalsRecorded,
} from '#server/modules/audit-trail/classified-reads.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { type Access, accessFile, addParticipants, isUuid } from './efiles.access.ts';
import { putLetterIn } from './efiles.items.ts';
import { activeHead, nextNumber } from './efiles.numbers.ts';
import { efilesPolicy, RECORDED_EFILE_CLASSIFICATIONS } from './efiles.policy.ts';
import { assertRoute } from './efiles.route.ts';

/** Opens a file (POST /api/efiles): numbered, held by its creator; from a letter, that letter is C/1. */
export async function createEfile(db: Db, actor: Actor, raw: CreateEfileInput): Promise<string> {
  const input = createEfileInput.parse(raw);
  const ownerGroupId = input.ownerGroupId ?? actor.groupId;
  efilesPolicy.authorize(actor, 'efiles.create', { ownerGroupId });
  return db.transaction(async (tx) => {
    const head = await activeHead(tx, input.headId);
    await assertRoute(tx, actor, input.route, input.classification);
    const number = await nextNumber(tx, ownerGroupId!, head);
    const [file] = await tx
      .insert(efiles)
      .values({
        number,
        subject: input.subject,
        headId: head.id,
        classification: input.classification,
        ownerGroupId: ownerGroupId!,
        createdBy: actor.id,
        holderId: actor.id,
        route: input.route,
      })
      .returning();
    await tx
      .insert(efileMovements)
      .values({ efileId: file!.id, kind: 'created', toUserId: actor.id, receivedAt: new Date() });
    await addParticipants(tx, file!.id, [actor.id]);
    await recordActivity(tx, actor, 'activity.efile_created', { number }, { type: 'efile', id: file!.id });
    if (input.letterId) await putLetterIn(tx, actor, file!, input.letterId);
    return file!.id;
  });
}

export const recordedEfile = (file: EfileRow) =>
  RECORDED_EFILE_CLASSIFICATIONS.includes(file.classification)
    ? { object: { type: 'efile' as const, id: file.id, label: file.number }, classification: file.classification }
    : null;

/**
 * The checks of an opening of a file (its screen, its history, its export): seen by the policy (404 otherwise), a
 * guarded classification after a step-up; a refusal of a file above Unclassified is recorded in the audit trail
 * (decision 070). Returns the access and, for a recorded file, what its reading is to be recorded as.
 */
export async function checkOpening(db: Db, ctx: ReadContext, actor: Actor, id: string, action: ReadAction) {
  // The file as it is, to record a refusal of a recorded one too (the 404 hides it from the person, not the trail).
  const [file] = isUuid(id) ? await db.select().from(efiles).where(eq(efiles.id, id)).limit(1) : [];
  const item = file ? recordedEfile(file) : null;
  const access = await refusalsRecorded(db, ctx, item, action, async () => {
    const seen = await accessFile(db, actor, id);
    efilesPolicy.authorize(actor, 'efiles.open', { file: seen.file });
    return seen;
  });
  return { access, item };
}

/**
 * Opens a file for reading (GET /api/efiles/{id}): checkOpening's checks, and a file above Unclassified is recorded in
 * the audit trail before it is served. Its recipient opening it ends the sender's chance to pull it back.
 */
export async function openEfile(db: Db, ctx: ReadContext, actor: Actor, id: string): Promise<Access> {
  const { access, item } = await checkOpening(db, ctx, actor, id, 'efile_viewed');
  if (item) await recordRead(db, ctx, item, 'efile_viewed');
  await markOpened(db, access);
  return access;
}

/** The file's recipient has opened it (its screen or its export): its sender can no longer pull it back. */
export async function markOpened(db: Db, access: Access): Promise<void> {
  const pending = access.pending;
  if (pending && access.people.includes(pending.toUserId ?? '') && !pending.openedAt) {
    await db
      .update(efileMovements)
      .set({ openedAt: new Date() })
      .where(and(eq(efileMovements.id, pending.id), isNull(efileMovements.openedAt)));
  }
}

/** The pages of a file: its notes and correspondence, in order, and the people they name. */
export async function loadPages(db: DbOrTx, efileId: string) {
  const [notes, items] = await Promise.all([
    db.select().from(efileNotes).where(eq(efileNotes.efileId, efileId)).orderBy(asc(efileNotes.seq)),
    db.select().from(efileItems).where(eq(efileItems.efileId, efileId)).orderBy(asc(efileItems.seq)),
  ]);
  return { notes, items };
}

/** Names and designations of these people. */
export async function peopleById(db: DbOrTx, ids: (string | null)[]) {
  const wanted = [...new Set(ids.filter((i): i is string => Boolean(i)))];
  if (!wanted.length) return new Map<string, { id: string; name: string; designation: string; role: string }>();
  const rows = await db
    .select({ id: users.id, name: users.name, designation: users.designation, role: users.role })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((r) => [r.id, r]));
}
