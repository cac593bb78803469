import { and, eq, isNull } from 'drizzle-orm';

import type { Db } from '#server/db/client.ts';
import { efileCopies, efileMovements, efileNotes, efiles } from '#server/db/schema/index.ts';
import { conflict } from '#server/lib/errors.ts';
import { type ActivityCode, recordActivity } from '#server/modules/audit/audit.service.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { assertActs, lockFile } from './efiles.access.ts';
import { efilesPolicy } from './efiles.policy.ts';
import { assertRoute } from './efiles.route.ts';

/** Parking, resuming, closing and reopening a file, its route, and a copy seen (decision 107). */

type StateMove = 'parked' | 'resumed' | 'closed' | 'reopened';
const CODES: Record<StateMove, ActivityCode> = {
  parked: 'activity.efile_parked',
  resumed: 'activity.efile_resumed',
  closed: 'activity.efile_closed',
  reopened: 'activity.efile_reopened',
};
const NEXT_STATE = { parked: 'parked', resumed: 'open', closed: 'closed', reopened: 'open' } as const;

export async function changeState(db: Db, actor: Actor, id: string, move: StateMove, remarks = ''): Promise<void> {
  await db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, id);
    const { file } = access;
    if (move === 'parked') assertActs(actor, access);
    if (move === 'resumed') efilesPolicy.authorize(actor, 'efiles.resume', { file, holds: access.holds });
    if (move === 'closed' || move === 'reopened') {
      efilesPolicy.authorize(actor, 'efiles.close', { file, head: access.head });
      if (move === 'reopened' && file.state !== 'closed') throw conflict('efiles.not_closed');
      // Closing: by its creator or the owner group's head, while the file is with them (received), open or parked.
      if (move === 'closed') {
        if (file.state === 'closed') throw conflict('efiles.closed');
        efilesPolicy.authorize(actor, 'efiles.act', {
          file: { ...file, state: 'open' },
          holds: access.holds,
          received: access.pending === null,
          copy: access.copy,
        });
      }
    }
    const now = new Date();
    if (move === 'closed') {
      await tx
        .update(efileNotes)
        .set({ permanent: true, permanentAt: now })
        .where(and(eq(efileNotes.efileId, id), eq(efileNotes.permanent, false)));
    }
    await tx
      .update(efiles)
      .set({ state: NEXT_STATE[move], movedAt: now, ...(move === 'reopened' ? { holderId: actor.id } : {}) })
      .where(eq(efiles.id, id));
    await tx.insert(efileMovements).values({
      efileId: id,
      kind: move,
      fromUserId: actor.id,
      toUserId: move === 'reopened' ? actor.id : null,
      remarks,
      at: now,
      receivedAt: now,
    });
    await recordActivity(tx, actor, CODES[move], { number: file.number }, { type: 'efile', id });
  });
}

/** Sets the rest of the intended route: anyone the file is with may change it. */
export async function setRoute(db: Db, actor: Actor, id: string, route: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, id);
    assertActs(actor, access);
    await assertRoute(tx, actor, route, access.file.classification);
    await tx.update(efiles).set({ route }).where(eq(efiles.id, id));
    await recordActivity(
      tx,
      actor,
      'activity.efile_route_changed',
      { number: access.file.number },
      {
        type: 'efile',
        id,
      },
    );
  });
}

/** A copy for information marked seen by the person it was sent to. */
export async function seeCopy(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, id);
    const seen = await tx
      .update(efileCopies)
      .set({ seenAt: new Date() })
      .where(and(eq(efileCopies.efileId, id), eq(efileCopies.userId, actor.id), isNull(efileCopies.seenAt)))
      .returning({ id: efileCopies.id });
    if (!seen.length) throw conflict('efiles.copy_only');
    await recordActivity(tx, actor, 'activity.efile_copy_seen', { number: access.file.number }, { type: 'efile', id });
  });
}
