import { buffer } from 'node:stream/consumers';

import { eq, sql } from 'drizzle-orm';

import type { MailConfig } from '#server/config.ts';
import type { DbOrTx } from '#server/db/client.ts';
import { mailOutbox, type MailOutboxRow } from '#server/db/schema/index.ts';
import { resetLinkWorks, resetToken } from '#server/modules/auth/reset-token.ts';
import type { StorageDriver } from '#server/modules/files/drivers/types.ts';

import { NOTICE_LINKS } from './mail.items.ts';
import type { MailKind, MailParams } from './mail.kinds.ts';
import type { MailTransport } from './mail.transport.ts';
import { renderMail } from './templates/index.ts';

/** The screens a mail links to (web/lib/paths.ts), after PORTAL_URL. */
const LINKS: Record<Exclude<MailKind, 'password_reset' | 'notice'>, string> = {
  digest: '/',
  account_approved: '/login',
  password_elsewhere: '/login',
  account_rejected: '/',
  letter_marked: '/dac/inbox',
  letter_returned: '/dac/inbox',
  dispatch: '/',
};

/** Where a mail's link goes; a reset link carries its token, made again from the row id (decision 077). */
function linkOf(row: MailOutboxRow, mail: MailConfig, jwtSecret: string): string {
  const kind = row.kind as MailKind;
  if (kind === 'password_reset') {
    const { resetId } = row.params as MailParams['password_reset'];
    return `${mail.portalUrl}/reset-password?token=${resetToken(jwtSecret, resetId)}`;
  }
  if (kind === 'notice')
    return `${mail.portalUrl}${NOTICE_LINKS[(row.params as unknown as MailParams['notice']).item.kind]}`;
  return `${mail.portalUrl}${LINKS[kind]}`;
}

/** Is there still something to say? A reset link that was used or has expired is not sent. */
async function stillWanted(db: DbOrTx, row: MailOutboxRow): Promise<boolean> {
  if (row.kind === 'password_reset') return resetLinkWorks(db, (row.params as MailParams['password_reset']).resetId);
  return true;
}

/** A dispatched letter's signed PDF (decision 120), read from storage when its mail is sent. */
async function attachmentOf(row: MailOutboxRow, driver: StorageDriver | undefined) {
  const { attachment } = row.params as unknown as MailParams['dispatch'];
  const stream = driver ? await driver.read(attachment.area, attachment.storedName) : null;
  if (!stream) throw new Error(`the attachment ${attachment.area}/${attachment.storedName} cannot be read`);
  return { filename: attachment.filename, content: await buffer(stream), contentType: 'application/pdf' };
}

export type DeliveryOutcome = 'sent' | 'dropped' | 'done already';

/**
 * Renders the outbox's mail `id` in its person's language and hands it to the relay (the mail queue's worker,
 * mail.jobs.ts; API tests call it themselves). A mail sent, dropped or given up already is left alone, so a job run
 * twice sends once. When the relay refuses or cannot be reached, the attempt is recorded and the error thrown, for
 * the queue to try again later; on the `last` attempt the mail is marked failed.
 */
export async function deliverMail(
  db: DbOrTx,
  transport: MailTransport,
  mail: MailConfig,
  jwtSecret: string,
  id: string,
  { last = false, driver }: { last?: boolean; driver?: StorageDriver } = {},
): Promise<DeliveryOutcome> {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
  if (!row || row.status === 'sent' || row.status === 'dropped' || row.status === 'failed') return 'done already';
  if (!(await stillWanted(db, row))) {
    await db.update(mailOutbox).set({ status: 'dropped', doneAt: new Date() }).where(eq(mailOutbox.id, id));
    return 'dropped';
  }
  const rendered = renderMail(row.kind as MailKind, row.params as never, row.language, linkOf(row, mail, jwtSecret));
  const host = new URL(mail.portalUrl).hostname;
  try {
    const attachments = row.kind === 'dispatch' ? [await attachmentOf(row, driver)] : undefined;
    await transport.sendMail({
      attachments,
      from: mail.from,
      to: row.toAddress,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      // One Message-ID per outbox row: a copy sent twice (a node lost between sending and recording) is one message
      // to the reader's mail program.
      messageId: `<${row.id}@${host}>`,
      headers: {
        'Content-Language': row.language,
        // RFC 3834: made by a program; out-of-office replies stay away.
        'Auto-Submitted': 'auto-generated',
        'X-Auto-Response-Suppress': 'All',
      },
    });
  } catch (err) {
    await db
      .update(mailOutbox)
      .set({
        attempts: sql`${mailOutbox.attempts} + 1`,
        lastError: String((err as Error).message ?? err).slice(0, 500),
        ...(last ? { status: 'failed' as const, doneAt: new Date() } : {}),
      })
      .where(eq(mailOutbox.id, id));
    throw err;
  }
  await db
    .update(mailOutbox)
    .set({ status: 'sent', attempts: sql`${mailOutbox.attempts} + 1`, lastError: null, doneAt: new Date() })
    .where(eq(mailOutbox.id, id));
  return 'sent';
}
