import { inArray } from 'drizzle-orm';

import type { MailConfig } from '#server/config.ts';
import type { DbOrTx } from '#server/db/client.ts';
import { mailOutbox } from '#server/db/schema/index.ts';

import { type MailEvent, mailsNow } from './mail.decision.ts';
import { IMMEDIATE_PRIORITIES, type MailKind, type MailParams } from './mail.kinds.ts';

/** Whom a mail is for: their account, address and last-chosen language (users.language). */
export interface MailRecipient {
  id: string;
  email: string;
  language: string;
}

type Priority = MailParams['letter_marked']['priority'];

/** The event a letter service's own mail tells of; null for the mandatory mails and those already decided. */
function serviceMailEvent(kind: MailKind, params: { priority?: Priority }): MailEvent | null {
  if (kind === 'letter_marked')
    return { kind, urgent: params.priority !== undefined && IMMEDIATE_PRIORITIES.includes(params.priority) };
  if (kind === 'letter_returned') return { kind };
  return null;
}

/**
 * Writes a mail into the outbox, inside the caller's transaction (decision 076): the event and its mail are kept
 * together or not at all, and the mail jobs send it once the transaction commits. Without SMTP_URL (`mail` null)
 * nothing is written. Every module that tells people something by mail calls this; the kind's values are checked by
 * TypeScript against MailParams. (Where the digest and each person's choices come in, they decide here, per kind,
 * between now, the digest and not at all; approval and password reset stay mandatory.)
 */
export async function queueMail<K extends MailKind>(
  tx: DbOrTx,
  mail: MailConfig | null,
  to: MailRecipient,
  kind: K,
  params: MailParams[K],
): Promise<void> {
  if (!mail) return;
  // A kind the person chooses for is written now only when they want it now (decisions 081, 104); the digest takes it
  // from the notice otherwise. Approval, rejection and reset links are always sent.
  const event = serviceMailEvent(kind, params as { priority?: Priority });
  if (event && !(await mailsNow(tx, to.id, event))) return;
  await tx.insert(mailOutbox).values({
    userId: to.id,
    toAddress: to.email,
    language: to.language === 'hi' ? 'hi' : 'en',
    kind,
    params: params as Record<string, string | null>,
  });
}

/**
 * A dispatched letter's mail to an address outside the portal (decision 120), in the dispatch's transaction: no
 * account, no choice to ask; the signed PDF goes as an attachment. Answers the outbox row's id (the delivery's record),
 * or null without SMTP_URL.
 */
export async function queueDispatchMail(
  tx: DbOrTx,
  mail: MailConfig | null,
  to: { email: string; language: 'en' | 'hi' },
  params: MailParams['dispatch'],
): Promise<string | null> {
  if (!mail) return null;
  const [row] = await tx
    .insert(mailOutbox)
    .values({
      userId: null,
      toAddress: to.email,
      language: to.language,
      kind: 'dispatch',
      params: params as unknown as Record<string, string | null>,
    })
    .returning({ id: mailOutbox.id });
  return row!.id;
}

/** Where these outbox rows are (pending, queued, sent, failed…) and when they were done: a dispatch's delivery. */
export async function outboxStatuses(db: DbOrTx, ids: string[]) {
  if (!ids.length) return new Map<string, { status: string; doneAt: Date | null }>();
  const rows = await db
    .select({ id: mailOutbox.id, status: mailOutbox.status, doneAt: mailOutbox.doneAt })
    .from(mailOutbox)
    .where(inArray(mailOutbox.id, ids));
  return new Map(rows.map((r) => [r.id, { status: r.status, doneAt: r.doneAt }]));
}
