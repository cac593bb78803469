import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';
import { type SendEfileInput, sendEfileInput } from '#shared/schemas/efile.ts';

import type { Db, Tx } from '#server/db/client.ts';
import { efileCopies, efileMovements, efileNotes, efiles, users } from '#server/db/schema/index.ts';
import { badRequest, conflict } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { notify } from '#server/modules/notifications/notifications.service.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { type Access, addParticipants, assertActs, lockFile } from './efiles.access.ts';
import { efilesPolicy, isSenior } from './efiles.policy.ts';
import { assertRoute } from './efiles.route.ts';

/**
 * How a file moves (decision 107), after the dak's rules (decisions 020, 078, 079): sent to one officer at a time,
 * received, returned, pulled back until opened, parked, closed and reopened. Every move locks the file first and
 * checks in the same transaction, so of two moves at once one wins and the other is refused; each is in the activity
 * log, and the recipient is told under the bell.
 */

/**
 * Notes become permanent as the file leaves `sender` for `recipient`: every draft, except the sender's own drafts
 * going up to a senior officer (a yellow note: the senior may edit it, and it becomes permanent when they send on).
 */
async function settleNotes(tx: Tx, efileId: string, sender: string, recipientRole: string | null): Promise<void> {
  const [author] = await tx.select({ role: users.role }).from(users).where(eq(users.id, sender));
  const keepOwn = recipientRole !== null && author !== undefined && isSenior({ role: recipientRole as never }, author);
  await tx
    .update(efileNotes)
    .set({ permanent: true, permanentAt: new Date() })
    .where(
      and(
        eq(efileNotes.efileId, efileId),
        eq(efileNotes.permanent, false),
        keepOwn ? sql`${efileNotes.authorId} is distinct from ${sender}` : sql`true`,
      ),
    );
}

type Kind = 'sent' | 'returned';

/** Sends (or returns) the locked file to an officer: the one way a file moves to someone (a draft put up too, decision 122). */
export async function moveTo(tx: Tx, actor: Actor, access: Access, kind: Kind, raw: SendEfileInput) {
  const input = sendEfileInput.parse(raw);
  const { file } = access;
  if (input.dueDate && input.dueDate < todayInIndia()) throw badRequest('letters.due_date_past', 'dueDate');
  const self = [actor.id, file.holderId];
  const [person] = await tx.select().from(users).where(eq(users.id, input.to));
  if (!person) throw badRequest('letters.officer_not_found', 'to');
  efilesPolicy.authorize(actor, 'efiles.send_to', { person, file, self });
  await assertRoute(tx, actor, input.copies, file.classification, self);
  if (input.route) await assertRoute(tx, actor, input.route, file.classification);
  await settleNotes(tx, file.id, file.holderId, person.role);
  const now = new Date();
  const [movement] = await tx
    .insert(efileMovements)
    .values({
      efileId: file.id,
      kind,
      fromUserId: file.holderId,
      toUserId: person.id,
      actedBy: file.holderId === actor.id ? null : actor.id,
      remarks: input.remarks,
      dueDate: input.dueDate,
      priority: input.priority,
      at: now,
    })
    .returning();
  // The rest of the route: as the sender set it, else what followed this officer on it.
  const at = file.route.indexOf(person.id);
  const route = input.route ?? (at >= 0 ? file.route.slice(at + 1) : file.route);
  await tx.update(efiles).set({ holderId: person.id, movedAt: now, route }).where(eq(efiles.id, file.id));
  await addParticipants(tx, file.id, [file.holderId, person.id]);
  if (input.copies.length) {
    await tx
      .insert(efileCopies)
      .values(input.copies.map((userId) => ({ efileId: file.id, userId, sentBy: actor.id })))
      .onConflictDoNothing();
  }
  await notify(
    tx,
    {
      userIds: [person.id, ...input.copies],
      kind: 'efile_sent',
      subjectType: 'efile',
      subjectId: file.id,
      sourceIds: [movement!.id],
    },
    actor,
  );
  await recordActivity(
    tx,
    actor,
    kind === 'sent' ? 'activity.efile_sent' : 'activity.efile_returned',
    { number: file.number, name: person.name },
    { type: 'efile', id: file.id },
  );
  return movement!;
}

export async function sendEfile(db: Db, actor: Actor, id: string, input: SendEfileInput) {
  return db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, id);
    assertActs(actor, access);
    return moveTo(tx, actor, access, 'sent', input);
  });
}

/** Returns the file to whoever sent it to its holder. */
export async function returnEfile(db: Db, actor: Actor, id: string, remarks: string) {
  return db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, id);
    assertActs(actor, access);
    const [last] = await tx
      .select({ from: efileMovements.fromUserId })
      .from(efileMovements)
      .where(
        and(
          eq(efileMovements.efileId, id),
          eq(efileMovements.toUserId, access.file.holderId),
          inArray(efileMovements.kind, ['sent', 'returned']),
          isNull(efileMovements.pulledBackAt),
        ),
      )
      .orderBy(desc(efileMovements.at))
      .limit(1);
    if (!last?.from) throw conflict('efiles.nobody_to_return');
    return moveTo(tx, actor, access, 'returned', { to: last.from, remarks });
  });
}

export async function receiveEfile(db: Db, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, id);
    const pending = access.pending;
    efilesPolicy.authorize(actor, 'efiles.receive', {
      pending: pending !== null && access.people.includes(pending.toUserId ?? ''),
    });
    const now = new Date();
    await tx
      .update(efileMovements)
      .set({ receivedAt: now, openedAt: sql`coalesce(${efileMovements.openedAt}, ${now})` })
      .where(eq(efileMovements.id, pending!.id));
    await recordActivity(tx, actor, 'activity.efile_received', { number: access.file.number }, { type: 'efile', id });
  });
}

/** Pulls back the last sending: by its sender (or their delegate), until the recipient opened or received it. */
export async function pullBackEfile(db: Db, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, id);
    const [last] = await tx
      .select()
      .from(efileMovements)
      .where(
        and(
          eq(efileMovements.efileId, id),
          inArray(efileMovements.kind, ['sent', 'returned']),
          isNull(efileMovements.pulledBackAt),
        ),
      )
      .orderBy(desc(efileMovements.at))
      .limit(1);
    if (!last) throw conflict('efiles.nothing_to_pull_back');
    const [recipient] = await tx
      .select({ name: users.name })
      .from(users)
      .where(eq(users.id, last.toUserId ?? ''));
    efilesPolicy.authorize(actor, 'efiles.pull_back', {
      sender: access.people.includes(last.fromUserId ?? '') && access.file.holderId === last.toUserId,
      opened: Boolean(last.openedAt || last.receivedAt),
      recipient: recipient?.name ?? '',
    });
    const now = new Date();
    await tx.update(efileMovements).set({ pulledBackAt: now }).where(eq(efileMovements.id, last.id));
    await tx.insert(efileMovements).values({
      efileId: id,
      kind: 'pulled_back',
      fromUserId: last.toUserId,
      toUserId: last.fromUserId,
      actedBy: actor.id === last.fromUserId ? null : actor.id,
      at: now,
      receivedAt: now,
    });
    await tx.update(efiles).set({ holderId: last.fromUserId!, movedAt: now }).where(eq(efiles.id, id));
    await recordActivity(
      tx,
      actor,
      'activity.efile_pulled_back',
      { number: access.file.number, name: recipient?.name ?? '' },
      { type: 'efile', id },
    );
  });
}
