import { inArray } from 'drizzle-orm';

import type { MailPreferenceKind } from '#shared/schemas/mail-preferences.ts';
import type { NotificationKind } from '#shared/schemas/notification.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { letterMovements } from '#server/db/schema/index.ts';

import { IMMEDIATE_PRIORITIES } from './mail.kinds.ts';
import { choicesFor } from './mail.preferences.ts';

/**
 * The bell and the mail share one source of events (issue 32 item 5, decision 081): every notice is a row of
 * `notifications`, and its `mail` column says what becomes of it by mail, decided when it is written by the person's
 * choice for its kind: 'now' (the mail jobs turn it into a mail at once), 'digest' (the morning digest takes it), or
 * null (off, or a bell-only kind).
 */

/** Which choice governs each kind of notice; null: the bell alone ("a letter you marked is overdue"). */
export const NOTICE_PREFERENCE: Record<NotificationKind, MailPreferenceKind | null> = {
  letter_marked: 'letter_marked',
  letter_returned: 'letter_returned',
  letter_overdue: null,
  acknowledgement_due: 'acknowledgement',
  acknowledgement_overdue: 'acknowledgement',
  letter_due_tomorrow: 'letter_due',
  letter_overdue_held: 'letter_overdue',
  letter_escalated: 'letter_overdue',
  acknowledgement_requested: 'acknowledgement',
  close_group_ending: 'close_group_ending',
  registration_received: 'registration_received',
  sso_link_requested: null,
  directory_mail_collision: null,
  // Decision 107: the bell alone for now; a mail of its own words is left for a later change.
  efile_sent: null,
};

/**
 * The `mail` of each new notice (one per user id, with its cause in `sourceIds`). A marking's choice is the urgent
 * one for Urgent and Most Immediate letters. The immediate mails of a marking and of a letter sent back are written by
 * the letter services themselves (queueMail, with their own words), so those notices are 'now' never; they still go
 * to the digest when the person chose it.
 */
export async function noticeMail(
  tx: DbOrTx,
  kind: NotificationKind,
  userIds: string[],
  sourceIds: string[],
): Promise<('now' | 'digest' | null)[]> {
  const base = NOTICE_PREFERENCE[kind];
  if (!base || !userIds.length) return userIds.map(() => null);
  let urgentSources = new Set<string>();
  if (kind === 'letter_marked') {
    const moves = await tx
      .select({ id: letterMovements.id, priority: letterMovements.priority })
      .from(letterMovements)
      .where(inArray(letterMovements.id, sourceIds));
    urgentSources = new Set(moves.filter((m) => IMMEDIATE_PRIORITIES.includes(m.priority)).map((m) => m.id));
  }
  const normal = await choicesFor(tx, userIds, base);
  const urgent = kind === 'letter_marked' ? await choicesFor(tx, userIds, 'letter_marked_urgent') : normal;
  return userIds.map((userId, i) => {
    const isUrgent = urgentSources.has(sourceIds[i] ?? sourceIds[0]!);
    const choice = (isUrgent ? urgent : normal).get(userId) ?? 'off';
    if (choice === 'digest') return 'digest';
    if (choice === 'off') return null;
    const mailedByService = kind === 'letter_returned' || (kind === 'letter_marked' && isUrgent);
    return mailedByService ? null : 'now';
  });
}

/** Does the person want this service-written mail now (queueMail)? Mandatory kinds always. */
export function serviceMailPreference(kind: string, params: { priority?: string }): MailPreferenceKind | null {
  if (kind === 'letter_marked')
    return IMMEDIATE_PRIORITIES.includes(params.priority as never) ? 'letter_marked_urgent' : 'letter_marked';
  if (kind === 'letter_returned') return 'letter_returned';
  return null;
}
