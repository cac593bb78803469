// The demo's dak at work (server/demo/demo-seed.ts; decision 033): the newest letters of the register
// marked on from the uploader to the director, to a group's head and to an officer, then received, held past due,
// sent back or closed, so that every role's "Marked to Me" and the pendency report have something to show; one marking
// pulled back and marked again, and one copied for information to the demo employee (decision 079).
import { and, eq, gt, inArray, type SQL } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';
import type { DakPriority } from '#shared/schemas/letter.ts';

import type { Db } from '#server/db/client.ts';
import { letterMovements, notifications, type UserRow } from '#server/db/schema/index.ts';
import { markLetter, pullBackMovement } from '#server/modules/letters/letters.dak.marking.ts';
import { closeLetter, receiveLetter, returnLetter } from '#server/modules/letters/letters.dak.service.ts';
import type { MovementView } from '#server/modules/letters/letters.movements.views.ts';
import { toActor } from '#server/plugins/auth.ts';

import { DAY, type DemoWorld, isoDate, type SeedContext } from './demo-seed-context.ts';
import type { DemoLetter } from './demo-seed-letters.ts';

/** Where a letter's journey stops. */
type Ending =
  | 'with director' // marked to the director, not yet received
  | 'with head' // the director marked it to the group's head, who has not received it
  | 'head closed' // the head closed it
  | 'pending' // marked to an officer, not yet received
  | 'received' // received by the officer, due later or with no due date
  | 'overdue' // received by the officer and held past its due date
  | 'returned' // the officer sent it back to the head
  | 'closed'; // the officer closed it with a disposal

interface Journey {
  end: Ending;
  /** Key of DEMO_GROUPS, for the head and the officer. */
  group?: string;
  /** Which of the group's employees (in DEMO_STAFF order) holds it; 0 for the fire group is the demo employee. */
  officer?: number;
  priority?: DakPriority;
  /** Also marked to the administrator (a copy for the record). */
  admin?: boolean;
  /** The director's marking to the head also copies it for information to the demo employee (decision 079). */
  copy?: boolean;
  /** The head first marks it to the wrong officer (the next one) and pulls that back (decision 079). */
  pullBack?: boolean;
}

/** The journeys of the newest letters, newest first. */
const JOURNEYS: Journey[] = [
  { end: 'with director' },
  { end: 'pending', group: 'fire', officer: 0, priority: 'Urgent', pullBack: true },
  { end: 'with head', group: 'explosives', copy: true },
  { end: 'received', group: 'fire', officer: 0 },
  { end: 'with director', admin: true },
  { end: 'pending', group: 'hazard', officer: 1 },
  { end: 'overdue', group: 'fire', officer: 0 },
  { end: 'closed', group: 'environment', officer: 0 },
  { end: 'returned', group: 'fire', officer: 1 },
  { end: 'overdue', group: 'explosives', officer: 0, priority: 'Most Immediate' },
  { end: 'closed', group: 'fire', officer: 0 },
  { end: 'received', group: 'coordination', officer: 0 },
  { end: 'head closed', group: 'hazard' },
  { end: 'overdue', group: 'environment', officer: 1 },
  { end: 'closed', group: 'explosives', officer: 2 },
  { end: 'closed', group: 'hazard', officer: 0 },
];

const HOUR = 3600_000;

/**
 * Moves the newest letters along their journeys through the service functions the API calls (in savepoints of the
 * seed's transaction), so the inbox search copies, notifications and activity rows are the API's own. Those functions
 * stamp each step "now"; each step's times (and a due date already past) are then set back to the day the story
 * gives it, with the notifications it made.
 */
export async function seedDak(ctx: SeedContext, world: DemoWorld, register: DemoLetter[]): Promise<void> {
  const { tx, today, add } = ctx; // (not ctx.rnd: the later parts draw the same as before)
  const db = tx as unknown as Db; // the service opens a transaction: here a savepoint of the seed's
  const latest = new Date(today.getTime() - 2 * HOUR);
  const at = (t: number) => new Date(Math.min(t, latest.getTime()));
  const newestFirst = [...register].sort((a, b) => b.uploadedAt.getTime() - a.uploadedAt.getTime());

  /** Sets the given movements' times back (and their notifications' with them). */
  const backdate = async (ids: string[], set: Partial<typeof letterMovements.$inferInsert>, noticeSet = {}) => {
    await tx.update(letterMovements).set(set).where(inArray(letterMovements.id, ids));
    if (Object.keys(noticeSet).length) {
      await tx.update(notifications).set(noticeSet).where(inArray(notifications.sourceId, ids));
    }
  };
  const ids = (views: MovementView[]) => views.map((v) => v.movement.id);
  const employees = (group: string) => (world.byGroup.get(group) ?? []).filter((u) => u.role === 'employee');

  for (const [i, journey] of JOURNEYS.entries()) {
    const letter = newestFirst[i];
    if (!letter) break;
    const u = letter.uploadedAt.getTime();
    const head = journey.group ? world.heads.get(journey.group) : undefined;
    const officer = journey.group ? employees(journey.group)[journey.officer ?? 0] : undefined;
    const priority = journey.priority ?? 'Normal';

    /** Marks the letter from `from` to `to` at time `when`, due on `due` (a past due date is set afterwards). */
    const mark = async (
      from: UserRow,
      to: UserRow[],
      when: Date,
      remarks: string,
      due: string | null = null,
      info: UserRow[] = [],
    ) => {
      const made = await markLetter(db, toActor(from), letter.id, {
        to: to.map((p) => p.id),
        info: info.map((p) => p.id),
        remarks,
        priority,
        ...(due && due >= todayInIndia() ? { dueDate: due } : {}),
      });
      const copies = made.filter((v) => v.movement.forInformation);
      await backdate(
        ids(made.filter((v) => !v.movement.forInformation)),
        { markedAt: when, dueDate: due },
        { createdAt: when },
      );
      // A copy is filed closed from the start, with no due date (decision 079).
      if (copies.length) await backdate(ids(copies), { markedAt: when, endedAt: when }, { createdAt: when });
      // The holding the marking ended ("forwarded") ends when the marking was made.
      const forwarded: SQL | undefined = and(
        eq(letterMovements.letterId, letter.id),
        eq(letterMovements.outcome, 'forwarded'),
        gt(letterMovements.endedAt, when),
      );
      await tx.update(letterMovements).set({ endedAt: when }).where(forwarded);
      return made;
    };
    const receive = async (who: UserRow, when: Date) => {
      const m = await receiveLetter(db, toActor(who), letter.id);
      await backdate([m.movement.id], { receivedAt: when, readAt: when }, { readAt: when });
    };
    const close = async (who: UserRow, when: Date, n: number) => {
      const m = await closeLetter(db, toActor(who), letter.id, {
        disposal: n % 2 ? 'Examined; reply sent to the establishment.' : 'Noted and filed.',
        fileNo: `CFEES/DAK/${when.getUTCFullYear()}/${String(40 + n).padStart(3, '0')}`,
        replyRef: n % 2 ? `CFEES/OUT/${String(700 + n)}` : null,
      });
      await backdate([m.movement.id], { endedAt: when });
    };

    const toDirector = [world.director, ...(journey.admin ? [world.admin] : [])];
    await mark(letter.uploader, toDirector, at(u + 2 * HOUR), 'Put up for kind perusal.');
    add('letters marked');
    if (journey.end === 'with director' || !head) continue;

    await receive(world.director, at(u + 20 * HOUR));
    const copyTo = journey.copy ? employees('fire').slice(0, 1) : [];
    await mark(world.director, [head], at(u + 22 * HOUR), 'Please examine and put up.', null, copyTo);
    if (copyTo.length) add('letters copied for information');
    if (journey.end === 'with head') continue;

    await receive(head, at(u + 2 * DAY));
    // A closing falls within the last three weeks, so the pendency report's default month shows it.
    const closing = () => at(Math.max(u + 4 * DAY, today.getTime() - (2 + ((i * 7) % 19)) * DAY));
    if (journey.end === 'head closed') {
      await close(head, closing(), i);
      continue;
    }
    if (!officer) continue;

    const due =
      journey.end === 'overdue'
        ? isoDate(new Date(u + 9 * DAY)) // long past
        : journey.end === 'pending' || journey.end === 'received'
          ? isoDate(new Date(today.getTime() + 7 * DAY))
          : null;
    const wrong = journey.pullBack ? employees(journey.group!)[(journey.officer ?? 0) + 1] : undefined;
    if (wrong) {
      // Marked to the wrong officer, pulled back before they opened it, then marked to the right one.
      const [sent] = await mark(head, [wrong], at(u + 2 * DAY + 2 * HOUR), 'Please take necessary action.', due);
      await pullBackMovement(db, toActor(head), letter.id, sent!.movement.id);
      await backdate([sent!.movement.id], { endedAt: at(u + 2 * DAY + 2 * HOUR + 20 * 60_000) });
      add('letters pulled back');
    }
    await mark(head, [officer], at(u + 2 * DAY + 3 * HOUR), 'Please take necessary action.', due);
    if (journey.end === 'pending') continue;

    await receive(officer, at(u + 3 * DAY));
    if (journey.end === 'returned') {
      const [, back] = await returnLetter(db, toActor(officer), letter.id, {
        remarks: 'This does not concern my work. Please mark it to the officer handling it.',
      });
      const when = at(u + 3 * DAY + 4 * HOUR);
      await backdate([back!.movement.id], { markedAt: when }, { createdAt: when });
      await tx
        .update(letterMovements)
        .set({ endedAt: when })
        .where(and(eq(letterMovements.letterId, letter.id), eq(letterMovements.outcome, 'returned')));
    }
    if (journey.end === 'closed') await close(officer, closing(), i);
  }
}
