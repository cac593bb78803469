import { todayInIndia } from '#shared/format.ts';

import type { Db } from '#server/db/client.ts';
import type { JobModule } from '#server/jobs/job-queue.ts';
import { endingCloseGroupMembers } from '#server/modules/close-groups/close-groups.queries.ts';
import { morningEfileNotices } from '#server/modules/efiles/efiles.notifications.ts';
import { morningDakNotices } from '#server/modules/letters/letters.notifications.ts';
import { sendDigests } from '#server/modules/mail/mail.digest.ts';

import { notifyEach } from './notifications.service.ts';

/** The morning queue (pg-boss schedules it once across every node, at DIGEST_HOUR India time). */
export const MORNING_QUEUE = 'morning-notices';

/** A close group's members are told this many days before it ends (decision 081). */
export const CLOSE_GROUP_ENDING_DAYS = 3;

/**
 * "Close group ending": to each member of a close group that ends in CLOSE_GROUP_ENDING_DAYS days (or sooner, for a
 * morning missed), once per group and member. Returns how many were made.
 */
export async function closeGroupEndingNotices(db: Db, today: string): Promise<number> {
  const until = new Date(Date.parse(today) + CLOSE_GROUP_ENDING_DAYS * 86_400_000).toISOString().slice(0, 10);
  return notifyEach(db, {
    kind: 'close_group_ending',
    subjectType: 'close_group',
    recipients: endingCloseGroupMembers(today, until),
  });
}

/**
 * The morning (decision 082): the day's notices (due tomorrow, overdue, escalated — of dak and, decision 111, of
 * e-files —, close group ending), each mailed now or kept for the digest by the person's choice, then every person's
 * digest of what was kept since their last one.
 * Runs once across the nodes (a pg-boss schedule); run twice, it tells nothing twice (unique notices, digests taken
 * under row locks).
 */
export async function runMorning(
  db: Db,
  config: { mail: Parameters<typeof sendDigests>[1] | null; dakEscalateDays: number },
  today = todayInIndia(),
): Promise<{ notices: number; digests: number }> {
  const notices =
    (await morningDakNotices(db, { today, escalateDays: config.dakEscalateDays })) +
    (await morningEfileNotices(db, { today, escalateDays: config.dakEscalateDays })) +
    (await closeGroupEndingNotices(db, today));
  const digests = config.mail ? await sendDigests(db, config.mail) : 0;
  return { notices, digests };
}

export const morningJobs = (): JobModule => ({
  queues: [{ name: MORNING_QUEUE }],
  start: async ({ boss, database, config, log }) => {
    // The schedule follows DIGEST_HOUR (set here, not in `queues`, which are fixed before the config is read).
    await boss.schedule(MORNING_QUEUE, `0 ${config.digestHour} * * *`, {}, { tz: 'Asia/Kolkata' });
    await boss.work(MORNING_QUEUE, async () => {
      const done = await runMorning(database.db, config);
      if (done.notices || done.digests) log.info(done, 'morning notices and digests made');
    });
  },
});
