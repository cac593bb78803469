import { eq, inArray } from 'drizzle-orm';

import type { MailConfig } from '#server/config.ts';
import type { Db, DbOrTx } from '#server/db/client.ts';
import type { NotificationRow } from '#server/db/schema/index.ts';
import {
  markNoticesMailed,
  peopleWithDigestWaiting,
  takeDigestNotices,
  takeNoticesToMailNow,
} from '#server/modules/notifications/notifications.mailing.ts';
import { users } from '#server/modules/users/users.view.ts';

import { NOTICE_MAIL_DAYS, noticeItems } from './mail.items.ts';
import type { NoticeItem } from './mail.kinds.ts';
import { queueMail } from './mail.outbox.ts';

/**
 * From the bell's notices to mail (decisions 081, 082): a notice written with `mail = 'now'` becomes a mail at once
 * (the mail jobs call mailNoticesNow when its insert wakes them), one kept for the digest waits for the morning
 * (sendDigests, at DIGEST_HOUR). Each step locks the notices it takes (`for update skip locked`) and marks them done in
 * the transaction that writes their mail to the outbox, so two nodes never mail a notice twice and a crash loses none.
 */

async function recipients(db: DbOrTx, ids: string[]) {
  const rows = ids.length ? await db.select().from(users).where(inArray(users.id, ids)) : [];
  return new Map(rows.map((u) => [u.id, u] as const));
}

/** Mails the notices written to be mailed now; answers how many mails were written. */
export async function mailNoticesNow(db: Db, mail: MailConfig): Promise<number> {
  let total = 0;
  for (;;) {
    const { taken, written } = await db.transaction(async (tx) => {
      const rows = await takeNoticesToMailNow(tx, NOTICE_MAIL_DAYS, 200);
      if (!rows.length) return { taken: 0, written: 0 };
      const items = await noticeItems(tx, rows);
      const people = await recipients(tx, [...new Set(rows.map((r) => r.userId))]);
      let n = 0;
      for (const row of rows) {
        const item = items.get(row.id);
        const person = people.get(row.userId);
        if (!item || !person || person.status !== 'approved') continue;
        await queueMail(tx, mail, person, 'notice', { name: person.name, item });
        n++;
      }
      await markNoticesMailed(
        tx,
        rows.map((r) => r.id),
      );
      return { taken: rows.length, written: n };
    });
    total += written;
    if (taken < 200) return total;
  }
}

/**
 * The morning digest (decision 082): for each person with notices kept for it, one mail holding exactly those notices
 * (every one since their last digest), oldest first. Answers how many digests were written.
 */
export async function sendDigests(db: Db, mail: MailConfig): Promise<number> {
  const waiting = await peopleWithDigestWaiting(db, NOTICE_MAIL_DAYS);
  let sent = 0;
  for (const userId of waiting) {
    const wrote = await db.transaction(async (tx) => {
      const rows: NotificationRow[] = await takeDigestNotices(tx, userId, NOTICE_MAIL_DAYS);
      if (!rows.length) return false;
      const described = await noticeItems(tx, rows);
      const items = rows.flatMap((r): NoticeItem[] => (described.has(r.id) ? [described.get(r.id)!] : []));
      const [person] = await tx.select().from(users).where(eq(users.id, userId));
      const wanted = items.length > 0 && person?.status === 'approved';
      if (wanted) await queueMail(tx, mail, person, 'digest', { name: person.name, items });
      await markNoticesMailed(
        tx,
        rows.map((r) => r.id),
      );
      return wanted;
    });
    if (wrote) sent++;
  }
  return sent;
}
