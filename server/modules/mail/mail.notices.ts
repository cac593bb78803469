import type { NotificationKind } from '#shared/schemas/notification.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { movementsByIds } from '#server/modules/letters/letters.queries.ts';

import { noticeMailFor } from './mail.decision.ts';
import { IMMEDIATE_PRIORITIES } from './mail.kinds.ts';

/**
 * The bell and the mail share one source of events (decision 081): every notice is a row of `notifications`, and its
 * `mail` column says what becomes of it by mail, decided when it is written by the person's choice for its kind
 * (mail.decision.ts, decision 104): 'now' (the mail jobs turn it into a mail at once), 'digest' (the morning digest
 * takes it), or null (off, or a bell-only kind).
 */

/** The `mail` of each new notice (one per user id, with its cause in `sourceIds`): a marking's urgency is its letter's. */
export async function noticeMail(
  tx: DbOrTx,
  kind: NotificationKind,
  userIds: string[],
  sourceIds: string[],
): Promise<('now' | 'digest' | null)[]> {
  if (!userIds.length) return [];
  let urgentSources = new Set<string>();
  if (kind === 'letter_marked') {
    const moves = await movementsByIds(tx, sourceIds);
    urgentSources = new Set(moves.filter((m) => IMMEDIATE_PRIORITIES.includes(m.priority)).map((m) => m.id));
  }
  return noticeMailFor(
    tx,
    userIds,
    userIds.map((_, i) => ({ kind, urgent: urgentSources.has(sourceIds[i] ?? sourceIds[0]!) })),
  );
}
