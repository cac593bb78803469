import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import {
  closeGroupMembers,
  closeGroups,
  directorEntries,
  letterMovements,
  mailOutbox,
  notifications,
  type UserRow,
  users,
} from '#server/db/schema/index.ts';
import { runMorning } from '#server/modules/notifications/notifications.jobs.ts';
import { authHeaders, createGroup, createUser, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';
import { startMailTestApp } from '#server/test/mail-app.ts';
import { mailDrained } from '#server/test/mail-drained.ts';
import type { ReceivedMail, TestSmtp } from '#server/test/smtp-server.ts';

/*
 * The notices mailed now and the morning digest (decisions 081, 082), through a real SMTP server
 * (smtp-server; messages parsed by mailparser) with the portal's own mail jobs running on this file's database.
 */
const PORTAL_URL = 'http://localhost:4322';

let smtp: TestSmtp;
let app: FastifyInstance;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ smtp, app, stop } = await startMailTestApp(PORTAL_URL));
}, 60_000);

afterAll(async () => {
  await stop?.();
});

const call = async (method: 'POST' | 'GET' | 'PUT', user: UserRow, url: string, payload?: object) =>
  app.inject({ method, url, headers: await authHeaders(app, user), ...(payload ? { payload } : {}) });

async function letter(uploader: UserRow, classification = 'Normal', subject = `Boiler check ${Math.random()}`) {
  const res = await postLetter(app, uploader, letterFields({ letterSub: subject, classification }), letterPdf());
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; letterId: string; letterSub: string };
}

async function mark(from: UserRow, to: UserRow, l: { _id: string }, extra: object = {}) {
  const res = await call('POST', from, `/api/dac/${l._id}/movements`, { to: [to.id], ...extra });
  expect(res.statusCode, res.body).toBe(201);
}

const bullets = (mail: ReceivedMail) => mail.text.split('\n').filter((l) => l.startsWith('• '));
const linkOf = (mail: ReceivedMail) => new URL(mail.text.match(/https?:\/\/\S+/)![0]);
/** Morning, with the time of the notices already written moved a day back ("yesterday's"). */
const morning = () => runMorning(app.db, app.config);

describe('the morning digest', () => {
  it('holds exactly the items since the last digest, one message per person, in their language', async () => {
    const uploader = await createUser(app, 'director');
    const officer = await createUser(app, 'director', { language: 'hi', name: 'अनिल' });
    const admin = await createUser(app, 'admin');
    const first = await letter(uploader);
    const secret = await letter(uploader, 'Confidential', 'Radar trial figures');
    await app.db.update(users).set({ classifiedClearance: true }).where(eq(users.id, officer.id));
    await app.db.update(users).set({ classifiedClearance: true }).where(eq(users.id, uploader.id));
    await mark(uploader, officer, first);
    // A Normal marking is not mailed at once: it waits for the digest.
    expect(await app.db.select().from(mailOutbox).where(eq(mailOutbox.userId, officer.id))).toEqual([]);
    const reg = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: `digest-${Date.now()}@lab.test`,
        password: 'secret123',
        role: 'employee',
        about: '',
        personalDetails: { name: 'Meera Iyer', dob: '1990-04-12', mobile: '9876543210', address: 'Delhi' },
        professionalDetails: {
          designation: "Scientist 'B'",
          cadre: 'DRDS',
          intercom: '',
          internetEmail: '',
          dronaEmail: '',
          pis: '',
          aebasId: '',
        },
        employmentPeriod: { from: '2020-01-01', to: '' },
      },
    });
    expect(reg.statusCode, reg.body).toBe(201);

    await morning();
    const [digest] = await smtp.waitForMail(officer.email, { timeoutMs: 10_000 });
    expect(digest!.subject).toBe('आपका लैब पोर्टल सारांश: 1 सूचना');
    expect(digest!.language).toBe('hi');
    expect(bullets(digest!)).toEqual([
      `• पत्र ${first.letterId} (${first.letterSub}) आपको अंकित किया गया, Test director द्वारा।`,
    ]);
    expect(digest!.html).toContain('<html lang="hi">');
    expect(linkOf(digest!).origin).toBe(PORTAL_URL);
    const [adminDigest] = await smtp.waitForMail(admin.email, { timeoutMs: 10_000 });
    expect(bullets(adminDigest!)).toContainEqual(expect.stringMatching(/^• Meera Iyer <digest-.*> registered/));

    // The next day: only what came since. A Confidential letter by its Letter ID alone.
    await mark(uploader, officer, secret);
    await morning();
    await vi.waitFor(() => expect(smtp.mailsTo(officer.email)).toHaveLength(2), { timeout: 10_000 });
    const second = smtp.mailsTo(officer.email)[1]!;
    expect(bullets(second)).toEqual([`• पत्र ${secret.letterId} आपको अंकित किया गया, Test director द्वारा।`]);
    for (const part of [second.text, second.html, second.subject]) expect(part).not.toContain('Radar');

    // A morning with nothing new sends nothing; run again (another node, a retry) it sends nothing twice.
    await morning();
    await morning();
    await mailDrained(app.db);
    expect(smtp.mailsTo(officer.email)).toHaveLength(2);
  }, 60_000);

  it('follows the person’s choices: an Urgent marking kept for the digest, a kind turned off', async () => {
    const uploader = await createUser(app, 'director');
    const officer = await createUser(app, 'director');
    const set = await call('PUT', officer, '/api/users/me/mail-preferences', {
      preferences: { letter_marked_urgent: 'digest', letter_returned: 'off', letter_marked: 'now' },
    });
    expect(set.statusCode, set.body).toBe(200);
    const urgent = await letter(uploader);
    await mark(uploader, officer, urgent, { priority: 'Urgent' });
    const normal = await letter(uploader);
    await mark(uploader, officer, normal);
    // The Normal one now (its own notice mail), the Urgent one not yet.
    const [now] = await smtp.waitForMail(officer.email, { timeoutMs: 10_000 });
    expect(now!.subject).toBe(`Letter marked to you: ${normal.letterId}`);
    expect(linkOf(now!).href).toBe(`${PORTAL_URL}/dac/inbox`);
    await morning();
    await vi.waitFor(() => expect(smtp.mailsTo(officer.email)).toHaveLength(2), { timeout: 10_000 });
    expect(bullets(smtp.mailsTo(officer.email)[1]!)).toEqual([
      `• Letter ${urgent.letterId} (${urgent.letterSub}) was marked to you by Test director.`,
    ]);
  }, 60_000);
});

describe('the morning notices', () => {
  it('tell the officer of a letter due tomorrow and of one overdue, and the group head after DAK_ESCALATE_DAYS', async () => {
    const group = await createGroup(app);
    const head = await createUser(app, 'associate_director', { groupId: group.id });
    await app.db
      .insert(directorEntries)
      .values({ groupId: group.id, userId: head.id, from: '2020-01-01', designation: 'Associate Director' });
    const uploader = await createUser(app, 'director');
    const officer = await createUser(app, 'employee', { groupId: group.id });
    const tomorrow = new Date(Date.now() + 5.5 * 3600_000 + 86_400_000).toISOString().slice(0, 10);
    const dueSoon = await letter(uploader);
    await mark(uploader, officer, dueSoon, { dueDate: tomorrow });
    const late = await letter(uploader);
    await mark(uploader, officer, late, { dueDate: tomorrow });
    // Due five days ago (moved back in the database: the API takes no past due date).
    await app.db
      .update(letterMovements)
      .set({ dueDate: new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10) })
      .where(and(eq(letterMovements.letterId, late._id), eq(letterMovements.toUserId, officer.id)));
    await morning();
    // Two notices now, and the digest of the two Normal markings themselves.
    await vi.waitFor(() => expect(smtp.mailsTo(officer.email)).toHaveLength(3), { timeout: 10_000 });
    const subjects = smtp.mailsTo(officer.email).map((m) => m.subject);
    expect(subjects.sort()).toEqual(
      [
        `Letter due tomorrow: ${dueSoon.letterId}`,
        `Letter overdue: ${late.letterId}`,
        'Your Lab Portal digest: 2 items',
      ].sort(),
    );
    const [escalated] = await smtp.waitForMail(head.email, { timeoutMs: 10_000 });
    expect(escalated!.subject).toBe(`Overdue in your group: ${late.letterId}`);
    expect(escalated!.text).toContain(`held by ${officer.name} of your group`);
    expect(linkOf(escalated!).pathname).toBe('/dac/pendency');
    // The bell has them too, from the same rows.
    const bell = await call('GET', officer, '/api/notifications');
    expect(bell.json().notifications.map((n: { kind: string }) => n.kind)).toEqual(
      expect.arrayContaining(['letter_due_tomorrow', 'letter_overdue_held']),
    );
    const kinds = await app.db.select().from(notifications).where(eq(notifications.userId, head.id));
    expect(kinds.map((k) => [k.kind, k.mail])).toEqual([['letter_escalated', 'done']]);
    // The next morning tells none of them again.
    await morning();
    await mailDrained(app.db);
    expect(smtp.mailsTo(officer.email)).toHaveLength(3);
  }, 60_000);

  it('tell the members of a close group 3 days before it ends, in their language, once', async () => {
    const member = await createUser(app, 'employee', { language: 'hi' });
    const outsider = await createUser(app, 'employee');
    const inThreeDays = new Date(Date.now() + 5.5 * 3600_000 + 3 * 86_400_000).toISOString().slice(0, 10);
    const [group] = await app.db
      .insert(closeGroups)
      .values({
        groupName: `Propellant trial ${Date.now()}`,
        groupPurpose: 'Trial',
        durationFrom: '2026-01-01',
        durationTo: inThreeDays,
      })
      .returning();
    await app.db.insert(closeGroupMembers).values({ closeGroupId: group!.id, userId: member.id });
    await morning();
    const [mail] = await smtp.waitForMail(member.email, { timeoutMs: 10_000 });
    expect(mail!.subject).toBe(`क्लोज़ ग्रुप समाप्त हो रहा है: ${group!.groupName}`);
    expect(linkOf(mail!).pathname).toBe('/closeGroup');
    await morning();
    await mailDrained(app.db);
    expect(smtp.mailsTo(member.email)).toHaveLength(1);
    expect(smtp.mailsTo(outsider.email)).toHaveLength(0);
    const bell = await call('GET', member, '/api/notifications');
    expect(bell.json().notifications).toMatchObject([
      { kind: 'close_group_ending', subject: { type: 'close_group', ref: group!.groupName } },
    ]);
  }, 60_000);
});
