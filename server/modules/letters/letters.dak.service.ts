import { and, asc, eq, inArray, isNull } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';
import type { MessageCode, MessageParams } from '#shared/messages/index.ts';
import type { ReturnLetterInput } from '#shared/schemas/letter.ts';

import type { MailConfig } from '#server/config.ts';
import type { Db, Tx } from '#server/db/client.ts';
import { type LetterMovementRow, letterMovements, type LetterRow } from '#server/db/schema/index.ts';
import { conflict } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type ReadContext, recordRead } from '#server/modules/audit-trail/classified-reads.ts';
import { queueMail } from '#server/modules/mail/mail.outbox.ts';
import { notify } from '#server/modules/notifications/notifications.service.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { type DakActivity, type Locked, lockLetter, mailable, recordDakActivity } from './letters.dak.lock.ts';
import { loadMovements, type MovementView } from './letters.movements.views.ts';
import { lettersPolicy } from './letters.policy.ts';
import { letterRefusalsRecorded, recordedLetter } from './letters.reads.ts';

/**
 * Dak that moves (docs/decisions/020-dak-movement.md, 105): what a holder does with a letter marked to them
 * (receive it, close it with a disposal, send it back), reading it in the inbox and seeing a copy for information.
 * Every write locks the letter first, checks in the same transaction, and records its activity there; a refusal
 * writes nothing. Marking and pulling back are letters.dak.marking.ts; the inbox letters.inbox.ts, pendency
 * letters.pendency.ts, the movements' reads letters.movements.views.ts.
 */

/** The holding a step acts on, and who acts for whom. */
interface Holding {
  letter: LetterRow;
  movement: LetterMovementRow;
  forOfficer: Locked['forOfficer'];
  /** The delegate who acted, recorded on the movement (receivedBy, endedBy), or null when the holder acted. */
  by: string | null;
  now: Date;
}

/** What a step wrote: the movements to answer, and its activity. */
interface Written {
  ids: string[];
  activity: DakActivity;
  params: MessageParams;
}

/**
 * Receive, close and send back, written once: locks the letter, checks `rule` on what the actor holds, picks the
 * movement the step acts on, lets `act` write, and records the step's activity ("…_for" the officer when a delegate
 * acts), all in one transaction. Answers the movements `act` wrote, as the dak trail shows them.
 */
async function holderStep(
  db: Db,
  actor: Actor,
  id: string,
  rule: 'letters.receive' | 'letters.close' | 'letters.send_back',
  pick: (held: LetterMovementRow[]) => LetterMovementRow,
  act: (tx: Tx, holding: Holding) => Promise<Written>,
): Promise<MovementView[]> {
  const ids = await db.transaction(async (tx) => {
    const { letter, held, forOfficer } = await lockLetter(tx, actor, id);
    lettersPolicy.authorize(actor, rule, { held });
    const movement = pick(held);
    const by = forOfficer ? actor.id : null;
    const written = await act(tx, { letter, movement, forOfficer, by, now: new Date() });
    await recordDakActivity(tx, actor, written.activity, written.params, id, forOfficer?.name);
    return written.ids;
  });
  return loadMovements(db, inArray(letterMovements.id, ids));
}

/** The actor's oldest holding in `box`, or a conflict `code`. */
function heldIn(held: LetterMovementRow[], box: LetterMovementRow['box'], code: MessageCode): LetterMovementRow {
  const movement = held.find((m) => m.box === box);
  if (!movement) throw conflict(code);
  return movement;
}

/** Receives (acknowledges) a letter marked to the actor (POST /api/dac/{id}/receive). */
export async function receiveLetter(db: Db, actor: Actor, id: string): Promise<MovementView> {
  const [view] = await holderStep(
    db,
    actor,
    id,
    'letters.receive',
    (held) => heldIn(held, 'pending', 'letters.already_received'),
    async (tx, { letter, movement, by, now }) => {
      await tx
        .update(letterMovements)
        .set({ box: 'received', receivedAt: now, readAt: movement.readAt ?? now, receivedBy: by })
        .where(eq(letterMovements.id, movement.id));
      return { ids: [movement.id], activity: 'activity.letter_received', params: { letter: letter.letterId } };
    },
  );
  return view!;
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
  const [view] = await holderStep(
    db,
    actor,
    id,
    'letters.close',
    (held) => heldIn(held, 'received', 'letters.receive_before_closing'),
    async (tx, { letter, movement, by, now }) => {
      await tx
        .update(letterMovements)
        .set({
          box: 'closed',
          outcome: 'closed',
          endedAt: now,
          disposal: input.disposal,
          fileNo: input.fileNo ?? null,
          replyRef: input.replyRef ?? null,
          endedBy: by,
        })
        .where(eq(letterMovements.id, movement.id));
      const params = { letter: letter.letterId, disposal: input.disposal };
      return { ids: [movement.id], activity: 'activity.letter_closed', params };
    },
  );
  return view!;
}

/**
 * Sends a letter back to whoever marked it to the actor, with remarks (POST /api/dac/{id}/return). The actor's
 * movement ends as "returned" and a new one goes back, with the same priority (and due date, unless it has passed).
 * A letter not yet received may be sent back too (marked to the wrong officer). The sender is told by the bell, and by
 * mail at once.
 */
export async function returnLetter(
  db: Db,
  actor: Actor,
  id: string,
  input: ReturnLetterInput,
  mail: MailConfig | null = null,
): Promise<MovementView[]> {
  return holderStep(
    db,
    actor,
    id,
    'letters.send_back',
    (held) => held.find((m) => m.box === 'received') ?? held[0]!,
    async (tx, { letter, movement, forOfficer, by, now }) => {
      const [found] = movement.fromUserId
        ? await tx.select().from(users).where(eq(users.id, movement.fromUserId)).limit(1)
        : [];
      // A delegate sends it back for the officer: the officer is the one who may not be its own sender.
      lettersPolicy.authorize(forOfficer ? { ...actor, id: forOfficer.id } : actor, 'letters.send_back_to', {
        sender: found,
        letter,
      });
      const sender = found!; // the rule refuses a letter with nobody to send it back to
      await tx
        .update(letterMovements)
        .set({ box: 'closed', outcome: 'returned', endedAt: now, readAt: movement.readAt ?? now, endedBy: by })
        .where(eq(letterMovements.id, movement.id));
      const [back] = await tx
        .insert(letterMovements)
        .values({
          letterId: id,
          fromUserId: forOfficer?.id ?? actor.id,
          markedBy: by,
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
      const params = { letter: letter.letterId, name: sender.name, remarks: input.remarks };
      return { ids: [movement.id, back!.id], activity: 'activity.letter_sent_back', params };
    },
  );
}

/**
 * Marks a letter read in the inbox (POST /api/dac/{id}/read): it is marked to the actor. Reading a Confidential or
 * Secret letter is an opening of it, recorded in the same transaction (decision 070), each time, read before or not;
 * a refusal is recorded once the transaction has rolled back.
 */
export async function readLetter(db: Db, ctx: ReadContext, actor: Actor, id: string): Promise<void> {
  await letterRefusalsRecorded(db, ctx, id, () =>
    db.transaction(async (tx) => {
      const { letter, held, forOfficer } = await lockLetter(tx, actor, id);
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
        await recordDakActivity(tx, actor, 'activity.letter_opened', { letter: letter.letterId }, id, forOfficer?.name);
      }
      // Last in the transaction: the audit chain's head stays locked only until the commit.
      if (item) await recordRead(tx, ctx, item, 'letter_viewed', { via: 'inbox' });
    }),
  );
}

/**
 * Marks a copy for information seen (POST /api/dac/{id}/seen): it was sent to the actor, or to an officer
 * they stand in for, for information. Seen once; seeing it again changes nothing.
 */
export async function markSeen(db: Db, actor: Actor, id: string): Promise<MovementView[]> {
  const ids = await db.transaction(async (tx) => {
    const { letter, people } = await lockLetter(tx, actor, id);
    const copies = await tx
      .select()
      .from(letterMovements)
      .where(
        and(
          eq(letterMovements.letterId, id),
          inArray(letterMovements.toUserId, people),
          eq(letterMovements.forInformation, true),
          isNull(letterMovements.outcome),
        ),
      )
      .orderBy(asc(letterMovements.markedAt));
    lettersPolicy.authorize(actor, 'letters.mark_seen', { copies });
    const own = copies.some((c) => c.toUserId === actor.id) ? copies.filter((c) => c.toUserId === actor.id) : copies;
    const unseen = own.filter((c) => !c.readAt);
    if (unseen.length) {
      await tx
        .update(letterMovements)
        .set({ readAt: new Date(), receivedBy: unseen[0]!.toUserId === actor.id ? null : actor.id })
        .where(
          inArray(
            letterMovements.id,
            unseen.map((c) => c.id),
          ),
        );
      await recordActivity(tx, actor, 'activity.letter_seen', { letter: letter.letterId }, { type: 'letter', id });
    }
    return own.map((c) => c.id);
  });
  return loadMovements(db, inArray(letterMovements.id, ids));
}
