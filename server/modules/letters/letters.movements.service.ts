import { and, asc, eq, inArray, ne } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';
import type { DakPriority, MarkLetterInput, ReturnLetterInput } from '#shared/schemas/letter.ts';

import type { MailConfig } from '#server/config.ts';
import type { Db, Tx } from '#server/db/client.ts';
import { type LetterMovementRow, letterMovements, type LetterRow, letters, users } from '#server/db/schema/index.ts';
import { badRequest, conflict, notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type ReadContext, recordRead } from '#server/modules/audit-trail/classified-reads.ts';
import { IMMEDIATE_PRIORITIES } from '#server/modules/mail/mail.kinds.ts';
import { queueMail } from '#server/modules/mail/mail.outbox.ts';
import { notify } from '#server/modules/notifications/notifications.service.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { loadMovements, type MovementView } from './letters.movements.views.ts';
import { lettersPolicy } from './letters.policy.ts';
import { letterRefusalsRecorded, recordedLetter } from './letters.reads.ts';
import { letterInvolvement } from './letters.service.ts';

/**
 * Dak that moves (issue 17; docs/decisions/020-dak-movement.md): marking a letter to officers, receipt, closing with
 * a disposal, sending back, and reading it in the inbox. Every write locks the letter first, checks in the same
 * transaction, and records its activity there; a refusal writes nothing. The inbox is letters.inbox.ts, pendency
 * letters.pendency.ts, the movements' reads letters.movements.views.ts.
 */

/** Locks the letter and finds what the actor may do with it: 404 if they may not see it, 409 if it is binned. */
async function lockLetter(tx: Tx, actor: Actor, id: string): Promise<{ letter: LetterRow; held: LetterMovementRow[] }> {
  const [letter] = await tx.select().from(letters).where(eq(letters.id, id)).limit(1).for('update');
  if (!letter) throw notFound('letters.not_found');
  const { involved } = await letterInvolvement(tx, id, actor.id);
  lettersPolicy.authorize(actor, 'letters.view', { letter, involved });
  if (letter.deletedAt) throw conflict('letters.in_recycle_bin_act');
  // Moving or reading a Secret letter needs a fresh check (decision 066).
  lettersPolicy.authorize(actor, 'letters.open', { letter });
  // What the actor holds of it now: their open movements, oldest first.
  const held = await tx
    .select()
    .from(letterMovements)
    .where(
      and(eq(letterMovements.letterId, id), eq(letterMovements.toUserId, actor.id), ne(letterMovements.box, 'closed')),
    )
    .orderBy(asc(letterMovements.markedAt));
  return { letter, held };
}

const names = (list: { name: string }[]) => list.map((p) => p.name).join(', ');

/**
 * What a mail may say of a letter (issue 32): its Letter ID always; its subject, and the remarks given with it, only
 * when it is not classified (a Confidential or Secret letter is named by its Letter ID alone).
 */
const mailable = (letter: LetterRow, remarks: string) => {
  const open = letter.classification === 'Normal';
  return {
    letterRef: letter.letterId,
    subject: open ? letter.letterSub : null,
    remarks: open && remarks ? remarks : null,
  };
};

/**
 * Marks a letter to one or more officers (POST /api/dac/{id}/movements): its uploader, a director, an admin, or an
 * officer who holds it (who then no longer holds it: their movement ends as "forwarded"). Each recipient gets a
 * movement and a notification, and a mail at once when the letter is Urgent or Most Immediate (issue 32). Returns the
 * new movements.
 */
export async function markLetter(
  db: Db,
  actor: Actor,
  id: string,
  raw: MarkLetterInput,
  mail: MailConfig | null = null,
): Promise<MovementView[]> {
  const input = {
    to: raw.to,
    remarks: raw.remarks ?? '',
    dueDate: raw.dueDate ?? null,
    priority: (raw.priority ?? 'Normal') as DakPriority,
  };
  const ids = await db.transaction(async (tx) => {
    const { letter, held } = await lockLetter(tx, actor, id);
    lettersPolicy.authorize(actor, 'letters.mark', { letter, holds: held.length > 0 });
    if (held.length && held.every((m) => m.box === 'pending')) throw conflict('letters.receive_before_marking');
    if (input.dueDate && input.dueDate < todayInIndia()) throw badRequest('letters.due_date_past', 'dueDate');
    const people = await tx.select().from(users).where(inArray(users.id, input.to));
    if (people.length !== input.to.length) throw badRequest('letters.officer_not_found', 'to');
    for (const person of people) lettersPolicy.authorize(actor, 'letters.mark_to', { person, letter });
    const holding = await tx
      .select({ name: users.name })
      .from(letterMovements)
      .innerJoin(users, eq(users.id, letterMovements.toUserId))
      .where(
        and(
          eq(letterMovements.letterId, id),
          inArray(letterMovements.toUserId, input.to),
          ne(letterMovements.box, 'closed'),
        ),
      );
    if (holding.length) throw conflict('letters.already_holds', 'to', { names: names(holding) });

    const now = new Date();
    if (held.length) {
      await tx
        .update(letterMovements)
        .set({ box: 'closed', outcome: 'forwarded', endedAt: now })
        .where(
          inArray(
            letterMovements.id,
            held.map((m) => m.id),
          ),
        );
    }
    const created = await tx
      .insert(letterMovements)
      .values(
        input.to.map((toUserId) => ({
          letterId: id,
          fromUserId: actor.id,
          toUserId,
          remarks: input.remarks,
          dueDate: input.dueDate,
          priority: input.priority,
          classified: letter.classification !== 'Normal',
          markedAt: now,
        })),
      )
      .returning({ id: letterMovements.id, toUserId: letterMovements.toUserId });
    await notify(
      tx,
      {
        userIds: created.map((m) => m.toUserId),
        kind: 'letter_marked',
        subjectType: 'letter',
        subjectId: id,
        sourceIds: created.map((m) => m.id),
      },
      actor,
    );
    const ordered = input.to.map((uid) => people.find((p) => p.id === uid)!);
    if (IMMEDIATE_PRIORITIES.includes(input.priority)) {
      const { letterRef, subject } = mailable(letter, '');
      for (const person of ordered) {
        await queueMail(tx, mail, person, 'letter_marked', {
          name: person.name,
          letterRef,
          subject,
          priority: input.priority,
          dueDate: input.dueDate,
          fromName: actor.name,
        });
      }
    }
    await recordActivity(
      tx,
      actor,
      input.dueDate ? 'activity.letter_marked_due' : 'activity.letter_marked',
      input.dueDate
        ? { letter: letter.letterId, names: names(ordered), dueDate: input.dueDate }
        : { letter: letter.letterId, names: names(ordered) },
      { type: 'letter', id },
    );
    return created.map((m) => m.id);
  });
  return loadMovements(db, inArray(letterMovements.id, ids));
}

/** Receives (acknowledges) a letter marked to the actor (POST /api/dac/{id}/receive). */
export async function receiveLetter(db: Db, actor: Actor, id: string): Promise<MovementView> {
  const movementId = await db.transaction(async (tx) => {
    const { letter, held } = await lockLetter(tx, actor, id);
    lettersPolicy.authorize(actor, 'letters.receive', { held });
    const waiting = held.find((m) => m.box === 'pending');
    if (!waiting) throw conflict('letters.already_received');
    const now = new Date();
    await tx
      .update(letterMovements)
      .set({ box: 'received', receivedAt: now, readAt: waiting.readAt ?? now })
      .where(eq(letterMovements.id, waiting.id));
    await recordActivity(tx, actor, 'activity.letter_received', { letter: letter.letterId }, { type: 'letter', id });
    return waiting.id;
  });
  return (await loadMovements(db, eq(letterMovements.id, movementId)))[0]!;
}

/**
 * Closes the actor's holding of a letter with its disposal (POST /api/dac/{id}/close): the action taken, and the file
 * number and reply reference if any. The letter is closed when nobody holds it any more.
 */
export async function closeLetter(
  db: Db,
  actor: Actor,
  id: string,
  input: { disposal: string; fileNo?: string | null; replyRef?: string | null },
): Promise<MovementView> {
  const movementId = await db.transaction(async (tx) => {
    const { letter, held } = await lockLetter(tx, actor, id);
    lettersPolicy.authorize(actor, 'letters.close', { held });
    const movement = held.find((m) => m.box === 'received');
    if (!movement) throw conflict('letters.receive_before_closing');
    await tx
      .update(letterMovements)
      .set({
        box: 'closed',
        outcome: 'closed',
        endedAt: new Date(),
        disposal: input.disposal,
        fileNo: input.fileNo ?? null,
        replyRef: input.replyRef ?? null,
      })
      .where(eq(letterMovements.id, movement.id));
    await recordActivity(
      tx,
      actor,
      'activity.letter_closed',
      { letter: letter.letterId, disposal: input.disposal },
      { type: 'letter', id },
    );
    return movement.id;
  });
  return (await loadMovements(db, eq(letterMovements.id, movementId)))[0]!;
}

/**
 * Sends a letter back to whoever marked it to the actor, with remarks (POST /api/dac/{id}/return). The actor's
 * movement ends as "returned" and a new one goes back, with the same priority (and due date, unless it has passed).
 * A letter not yet received may be sent back too (marked to the wrong officer). The sender is told by the bell, and by
 * mail at once (issue 32).
 */
export async function returnLetter(
  db: Db,
  actor: Actor,
  id: string,
  input: ReturnLetterInput,
  mail: MailConfig | null = null,
): Promise<MovementView[]> {
  const ids = await db.transaction(async (tx) => {
    const { letter, held } = await lockLetter(tx, actor, id);
    lettersPolicy.authorize(actor, 'letters.send_back', { held });
    const movement = held.find((m) => m.box === 'received') ?? held[0]!;
    const [found] = movement.fromUserId
      ? await tx.select().from(users).where(eq(users.id, movement.fromUserId)).limit(1)
      : [];
    lettersPolicy.authorize(actor, 'letters.send_back_to', { sender: found, letter });
    const sender = found!; // the rule refuses a letter with nobody to send it back to
    const now = new Date();
    await tx
      .update(letterMovements)
      .set({ box: 'closed', outcome: 'returned', endedAt: now, readAt: movement.readAt ?? now })
      .where(eq(letterMovements.id, movement.id));
    const [back] = await tx
      .insert(letterMovements)
      .values({
        letterId: id,
        fromUserId: actor.id,
        toUserId: sender.id,
        remarks: input.remarks,
        dueDate: movement.dueDate && movement.dueDate >= todayInIndia() ? movement.dueDate : null,
        priority: movement.priority,
        classified: letter.classification !== 'Normal',
        markedAt: now,
      })
      .returning({ id: letterMovements.id });
    await notify(
      tx,
      { userIds: [sender.id], kind: 'letter_returned', subjectType: 'letter', subjectId: id, sourceIds: [back!.id] },
      actor,
    );
    await queueMail(tx, mail, sender, 'letter_returned', {
      name: sender.name,
      ...mailable(letter, input.remarks),
      fromName: actor.name,
    });
    await recordActivity(
      tx,
      actor,
      'activity.letter_sent_back',
      { letter: letter.letterId, name: sender.name, remarks: input.remarks },
      { type: 'letter', id },
    );
    return [movement.id, back!.id];
  });
  return loadMovements(db, inArray(letterMovements.id, ids));
}

/**
 * Marks a letter read in the inbox (POST /api/dac/{id}/read): it is marked to the actor. Reading a Confidential or
 * Secret letter is an opening of it, recorded in the same transaction (decision 070), each time, read before or not;
 * a refusal is recorded once the transaction has rolled back.
 */
export async function readLetter(db: Db, ctx: ReadContext, actor: Actor, id: string): Promise<void> {
  await letterRefusalsRecorded(db, ctx, id, () =>
    db.transaction(async (tx) => {
      const { letter, held } = await lockLetter(tx, actor, id);
      lettersPolicy.authorize(actor, 'letters.read', { held });
      const item = recordedLetter(letter);
      const unread = held.filter((m) => !m.readAt);
      if (unread.length) {
        await tx
          .update(letterMovements)
          .set({ readAt: new Date() })
          .where(
            inArray(
              letterMovements.id,
              unread.map((m) => m.id),
            ),
          );
        await recordActivity(tx, actor, 'activity.letter_opened', { letter: letter.letterId }, { type: 'letter', id });
      }
      // Last in the transaction: the audit chain's head stays locked only until the commit.
      if (item) await recordRead(tx, ctx, item, 'letter_viewed', { via: 'inbox' });
    }),
  );
}
