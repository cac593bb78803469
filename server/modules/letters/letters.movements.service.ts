import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm';

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

import { activeDelegators } from './letters.delegation.ts';
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

/** What the actor may act on in a letter, and for whom. */
interface Locked {
  letter: LetterRow;
  /** The open movements of one holder: the actor's own, else those of an officer the actor stands in for. */
  held: LetterMovementRow[];
  /** The officer the actor acts for (issue 32: a delegate on that officer's movements), or null for themselves. */
  forOfficer: { id: string; name: string } | null;
  /** The actor and the officers whose dak is delegated to them today. */
  people: string[];
}

/**
 * Locks the letter and finds what the actor may do with it: 404 if they may not see it, 409 if it is binned. A
 * delegate (issue 32, decision 078) also holds what the officers they stand in for hold today; their own holding
 * comes first. A delegate not cleared for a Confidential or Secret letter is refused it by `letters.view` (404).
 */
async function lockLetter(tx: Tx, actor: Actor, id: string): Promise<Locked> {
  const [letter] = await tx.select().from(letters).where(eq(letters.id, id)).limit(1).for('update');
  if (!letter) throw notFound('letters.not_found');
  const standsFor = await activeDelegators(tx, actor.id);
  const { involved } = await letterInvolvement(tx, id, actor.id, standsFor);
  lettersPolicy.authorize(actor, 'letters.view', { letter, involved });
  if (letter.deletedAt) throw conflict('letters.in_recycle_bin_act');
  // Moving or reading a Secret letter needs a fresh check (decision 066).
  lettersPolicy.authorize(actor, 'letters.open', { letter });
  const people = [actor.id, ...standsFor];
  // What the actor holds of it now: their open movements, oldest first (and those of the officers they stand in for).
  const open = await tx
    .select()
    .from(letterMovements)
    .where(
      and(
        eq(letterMovements.letterId, id),
        inArray(letterMovements.toUserId, people),
        ne(letterMovements.box, 'closed'),
      ),
    )
    .orderBy(asc(letterMovements.markedAt));
  const holder = open.some((m) => m.toUserId === actor.id)
    ? actor.id
    : people.find((p) => open.some((m) => m.toUserId === p));
  const held = open.filter((m) => m.toUserId === holder);
  let forOfficer: Locked['forOfficer'] = null;
  if (holder && holder !== actor.id) {
    const [officer] = await tx.select({ id: users.id, name: users.name }).from(users).where(eq(users.id, holder));
    forOfficer = officer ?? null;
  }
  return { letter, held, forOfficer, people };
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
    info: raw.info ?? [],
    remarks: raw.remarks ?? '',
    dueDate: raw.dueDate ?? null,
    priority: (raw.priority ?? 'Normal') as DakPriority,
  };
  const ids = await db.transaction(async (tx) => {
    const { letter, held, forOfficer } = await lockLetter(tx, actor, id);
    lettersPolicy.authorize(actor, 'letters.mark', { letter, holds: held.length > 0 });
    if (held.length && held.every((m) => m.box === 'pending')) throw conflict('letters.receive_before_marking');
    if (input.dueDate && input.dueDate < todayInIndia()) throw badRequest('letters.due_date_past', 'dueDate');
    const everyone = [...input.to, ...input.info];
    const people = await tx.select().from(users).where(inArray(users.id, everyone));
    if (people.length !== everyone.length) {
      const missing = input.to.some((uid) => !people.some((p) => p.id === uid));
      throw badRequest('letters.officer_not_found', missing ? 'to' : 'info');
    }
    for (const person of people) {
      // Marking for an officer (issue 32): not to that officer either.
      if (forOfficer && person.id === forOfficer.id) throw badRequest('letters.mark_to_self', 'to');
      lettersPolicy.authorize(actor, 'letters.mark_to', { person, letter });
    }
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
        .set({ box: 'closed', outcome: 'forwarded', endedAt: now, endedBy: forOfficer ? actor.id : null })
        .where(
          inArray(
            letterMovements.id,
            held.map((m) => m.id),
          ),
        );
    }
    // Copies for information (decision 079) are filed closed from the start, with no outcome: nobody holds them.
    const created = await tx
      .insert(letterMovements)
      .values(
        [
          ...input.to.map((toUserId) => ({ toUserId, info: false })),
          ...input.info.map((toUserId) => ({ toUserId, info: true })),
        ].map(({ toUserId, info }) => ({
          letterId: id,
          fromUserId: forOfficer?.id ?? actor.id,
          markedBy: forOfficer ? actor.id : null,
          toUserId,
          remarks: input.remarks,
          dueDate: info ? null : input.dueDate,
          priority: input.priority,
          classified: letter.classification !== 'Normal',
          markedAt: now,
          forInformation: info,
          ...(info ? { box: 'closed' as const } : {}),
        })),
      )
      .returning({ id: letterMovements.id, toUserId: letterMovements.toUserId });
    // A copy for information notifies like a marking (issue 32).
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
    const copied = input.info.map((uid) => people.find((p) => p.id === uid)!);
    if (IMMEDIATE_PRIORITIES.includes(input.priority)) {
      const { letterRef, subject } = mailable(letter, '');
      for (const person of [...ordered, ...copied]) {
        await queueMail(tx, mail, person, 'letter_marked', {
          name: person.name,
          letterRef,
          subject,
          priority: input.priority,
          dueDate: input.info.includes(person.id) ? null : input.dueDate,
          fromName: actor.name,
        });
      }
    }
    const target = { type: 'letter', id };
    const officer: Record<string, string> = forOfficer ? { officer: forOfficer.name } : {};
    if (ordered.length) {
      await recordActivity(
        tx,
        actor,
        input.dueDate
          ? forOfficer
            ? 'activity.letter_marked_due_for'
            : 'activity.letter_marked_due'
          : forOfficer
            ? 'activity.letter_marked_for'
            : 'activity.letter_marked',
        input.dueDate
          ? { letter: letter.letterId, names: names(ordered), dueDate: input.dueDate, ...officer }
          : { letter: letter.letterId, names: names(ordered), ...officer },
        target,
      );
    }
    if (copied.length) {
      await recordActivity(
        tx,
        actor,
        forOfficer ? 'activity.letter_copied_for' : 'activity.letter_copied',
        { letter: letter.letterId, names: names(copied), ...officer },
        target,
      );
    }
    return created.map((m) => m.id);
  });
  return loadMovements(db, inArray(letterMovements.id, ids));
}

/** Receives (acknowledges) a letter marked to the actor (POST /api/dac/{id}/receive). */
export async function receiveLetter(db: Db, actor: Actor, id: string): Promise<MovementView> {
  const movementId = await db.transaction(async (tx) => {
    const { letter, held, forOfficer } = await lockLetter(tx, actor, id);
    lettersPolicy.authorize(actor, 'letters.receive', { held });
    const waiting = held.find((m) => m.box === 'pending');
    if (!waiting) throw conflict('letters.already_received');
    const now = new Date();
    await tx
      .update(letterMovements)
      .set({
        box: 'received',
        receivedAt: now,
        readAt: waiting.readAt ?? now,
        receivedBy: forOfficer ? actor.id : null,
      })
      .where(eq(letterMovements.id, waiting.id));
    await recordActivity(
      tx,
      actor,
      forOfficer ? 'activity.letter_received_for' : 'activity.letter_received',
      forOfficer ? { letter: letter.letterId, officer: forOfficer.name } : { letter: letter.letterId },
      { type: 'letter', id },
    );
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
    const { letter, held, forOfficer } = await lockLetter(tx, actor, id);
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
        endedBy: forOfficer ? actor.id : null,
      })
      .where(eq(letterMovements.id, movement.id));
    await recordActivity(
      tx,
      actor,
      forOfficer ? 'activity.letter_closed_for' : 'activity.letter_closed',
      forOfficer
        ? { letter: letter.letterId, disposal: input.disposal, officer: forOfficer.name }
        : { letter: letter.letterId, disposal: input.disposal },
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
    const { letter, held, forOfficer } = await lockLetter(tx, actor, id);
    lettersPolicy.authorize(actor, 'letters.send_back', { held });
    const movement = held.find((m) => m.box === 'received') ?? held[0]!;
    const [found] = movement.fromUserId
      ? await tx.select().from(users).where(eq(users.id, movement.fromUserId)).limit(1)
      : [];
    // A delegate sends it back for the officer: the officer is the one who may not be its own sender.
    lettersPolicy.authorize(forOfficer ? { ...actor, id: forOfficer.id } : actor, 'letters.send_back_to', {
      sender: found,
      letter,
    });
    const sender = found!; // the rule refuses a letter with nobody to send it back to
    const now = new Date();
    await tx
      .update(letterMovements)
      .set({
        box: 'closed',
        outcome: 'returned',
        endedAt: now,
        readAt: movement.readAt ?? now,
        endedBy: forOfficer ? actor.id : null,
      })
      .where(eq(letterMovements.id, movement.id));
    const [back] = await tx
      .insert(letterMovements)
      .values({
        letterId: id,
        fromUserId: forOfficer?.id ?? actor.id,
        markedBy: forOfficer ? actor.id : null,
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
      forOfficer ? 'activity.letter_sent_back_for' : 'activity.letter_sent_back',
      forOfficer
        ? { letter: letter.letterId, name: sender.name, remarks: input.remarks, officer: forOfficer.name }
        : { letter: letter.letterId, name: sender.name, remarks: input.remarks },
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
        await recordActivity(
          tx,
          actor,
          forOfficer ? 'activity.letter_opened_for' : 'activity.letter_opened',
          forOfficer ? { letter: letter.letterId, officer: forOfficer.name } : { letter: letter.letterId },
          { type: 'letter', id },
        );
      }
      // Last in the transaction: the audit chain's head stays locked only until the commit.
      if (item) await recordRead(tx, ctx, item, 'letter_viewed', { via: 'inbox' });
    }),
  );
}

/**
 * Pulls back a marking (POST /api/dac/{id}/movements/{movementId}/pull-back; issue 32, decision 079): whoever marked
 * it (or a delegate for them), until the recipient has received or opened it (`letters.pull_back`). The marking ends
 * as "pulled back"; if the puller had held the letter and marked it on, and holds nothing of it now, their holding is
 * open again (received), as before the marking.
 */
export async function pullBackMovement(db: Db, actor: Actor, id: string, movementId: string): Promise<MovementView[]> {
  const ids = await db.transaction(async (tx) => {
    const { letter, people } = await lockLetter(tx, actor, id);
    const [movement] = await tx
      .select()
      .from(letterMovements)
      .where(and(eq(letterMovements.id, movementId), eq(letterMovements.letterId, id)));
    if (!movement || (movement.box === 'closed' && !movement.forInformation) || movement.outcome) {
      throw notFound('letters.pull_back_not_found');
    }
    const [recipient] = await tx.select({ name: users.name }).from(users).where(eq(users.id, movement.toUserId));
    lettersPolicy.authorize(actor, 'letters.pull_back', {
      movement,
      recipient: recipient?.name ?? '',
      markers: people,
    });
    const forOfficer = movement.fromUserId && movement.fromUserId !== actor.id ? movement.fromUserId : null;
    const now = new Date();
    await tx
      .update(letterMovements)
      .set({ box: 'closed', outcome: 'pulled_back', endedAt: now, endedBy: actor.id })
      .where(eq(letterMovements.id, movement.id));
    const changed = [movement.id];
    // The marker's own holding, ended as "forwarded" by this marking, opens again when they hold nothing else of it.
    if (movement.fromUserId && !movement.forInformation) {
      const [stillHolds] = await tx
        .select({ id: letterMovements.id })
        .from(letterMovements)
        .where(
          and(
            eq(letterMovements.letterId, id),
            eq(letterMovements.toUserId, movement.fromUserId),
            ne(letterMovements.box, 'closed'),
          ),
        )
        .limit(1);
      const [forwarded] = stillHolds
        ? []
        : await tx
            .select({ id: letterMovements.id })
            .from(letterMovements)
            .where(
              and(
                eq(letterMovements.letterId, id),
                eq(letterMovements.toUserId, movement.fromUserId),
                eq(letterMovements.outcome, 'forwarded'),
                eq(letterMovements.endedAt, movement.markedAt),
              ),
            )
            .limit(1);
      // Only when no other marking of that moment is still out with someone.
      const [others] = forwarded
        ? await tx
            .select({ id: letterMovements.id })
            .from(letterMovements)
            .where(
              and(
                eq(letterMovements.letterId, id),
                eq(letterMovements.markedAt, movement.markedAt),
                eq(letterMovements.forInformation, false),
                ne(letterMovements.box, 'closed'),
              ),
            )
            .limit(1)
        : [];
      if (forwarded && !others) {
        await tx
          .update(letterMovements)
          .set({ box: 'received', outcome: null, endedAt: null, endedBy: null })
          .where(eq(letterMovements.id, forwarded.id));
        changed.push(forwarded.id);
      }
    }
    const officerName = forOfficer
      ? (await tx.select({ name: users.name }).from(users).where(eq(users.id, forOfficer)))[0]?.name
      : undefined;
    await recordActivity(
      tx,
      actor,
      officerName !== undefined ? 'activity.letter_pulled_back_for' : 'activity.letter_pulled_back',
      officerName !== undefined
        ? { letter: letter.letterId, name: recipient?.name ?? '', officer: officerName }
        : { letter: letter.letterId, name: recipient?.name ?? '' },
      { type: 'letter', id },
    );
    return changed;
  });
  return loadMovements(db, inArray(letterMovements.id, ids));
}

/**
 * Marks a copy for information seen (POST /api/dac/{id}/seen; issue 32): it was sent to the actor, or to an officer
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
