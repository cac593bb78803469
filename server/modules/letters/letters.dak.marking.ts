import { and, eq, inArray, ne } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';
import type { DakPriority, MarkLetterInput } from '#shared/schemas/letter.ts';

import type { MailConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { letterMovements } from '#server/db/schema/index.ts';
import { badRequest, conflict, notFound } from '#server/lib/errors.ts';
import { IMMEDIATE_PRIORITIES } from '#server/modules/mail/mail.kinds.ts';
import { queueMail } from '#server/modules/mail/mail.outbox.ts';
import { notify } from '#server/modules/notifications/notifications.service.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { lockLetter, mailable, names, recordDakActivity } from './letters.dak.lock.ts';
import { loadMovements, type MovementView } from './letters.movements.views.ts';
import { lettersPolicy } from './letters.policy.ts';

/**
 * The dak's markings (docs/decisions/020-dak-movement.md, 079, 105): marking a letter on to officers, with copies for
 * information, and pulling a marking back before it is received. What a holder then does with it is
 * letters.dak.service.ts.
 */

/**
 * Marks a letter to one or more officers (POST /api/dac/{id}/movements): its uploader, a director, an admin, or an
 * officer who holds it (who then no longer holds it: their movement ends as "forwarded"). Each recipient gets a
 * movement and a notification, and a mail at once when the letter is Urgent or Most Immediate. Returns the
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
      // Marking for an officer: not to that officer either.
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
    // A copy for information notifies like a marking (decision 079).
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
    const officer = forOfficer?.name;
    if (ordered.length) {
      await recordDakActivity(
        tx,
        actor,
        input.dueDate ? 'activity.letter_marked_due' : 'activity.letter_marked',
        input.dueDate
          ? { letter: letter.letterId, names: names(ordered), dueDate: input.dueDate }
          : { letter: letter.letterId, names: names(ordered) },
        id,
        officer,
      );
    }
    if (copied.length) {
      const params = { letter: letter.letterId, names: names(copied) };
      await recordDakActivity(tx, actor, 'activity.letter_copied', params, id, officer);
    }
    return created.map((m) => m.id);
  });
  return loadMovements(db, inArray(letterMovements.id, ids));
}

/**
 * Pulls back a marking (POST /api/dac/{id}/movements/{movementId}/pull-back; decision 079): whoever marked
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
    const params = { letter: letter.letterId, name: recipient?.name ?? '' };
    await recordDakActivity(tx, actor, 'activity.letter_pulled_back', params, id, officerName);
    return changed;
  });
  return loadMovements(db, inArray(letterMovements.id, ids));
}
