import { sql } from 'drizzle-orm';
import { vi } from 'vitest';

import type { Db } from '#server/db/client.ts';
import { MAIL_QUEUE } from '#server/modules/mail/mail.jobs.ts';

/**
 * Waits until the mail is drained (decisions 076, 081): no notice waits to be mailed now, no outbox row waits to be
 * queued or sent, and no job of the mail queue is waiting, running or due for a retry. Every mail the portal will send has then reached the SMTP server (the
 * test server keeps a message before it answers the send), so a count of mails taken afterwards is final: a test
 * proves that no (second) mail arrives with this, not by sleeping.
 */
export async function mailDrained(db: Db, timeoutMs = 20_000): Promise<void> {
  await vi.waitFor(
    async () => {
      const { rows } = await db.execute<{ waiting: number }>(sql`
        select (select count(*) from notifications where mail = 'now')
             + (select count(*) from mail_outbox where status in ('pending', 'queued'))
             + (select count(*) from pgboss.job where name = ${MAIL_QUEUE} and state in ('created', 'retry', 'active'))
             as waiting`);
      if (Number(rows[0]!.waiting) > 0) throw new Error(`${rows[0]!.waiting} mail(s) still on their way`);
    },
    { timeout: timeoutMs, interval: 50 },
  );
}
