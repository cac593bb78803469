import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { directorEntries, efileHeads, efileMovements, notifications, type UserRow } from '#server/db/schema/index.ts';
import { runMorning } from '#server/modules/notifications/notifications.jobs.ts';
import { authHeaders, createGroup, createUser } from '#server/test/factories.ts';
import { startMailTestApp } from '#server/test/mail-app.ts';
import { mailDrained } from '#server/test/mail-drained.ts';
import type { ReceivedMail, TestSmtp } from '#server/test/smtp-server.ts';

/*
 * The mail of e-files (decision 111) through a real SMTP server (smtp-server, messages parsed by mailparser), with the
 * portal's own mail jobs running on this file's database: a file sent, and the morning's overdue and escalated files.
 */
const PORTAL_URL = 'http://localhost:4323';

let smtp: TestSmtp;
let app: FastifyInstance;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ smtp, app, stop } = await startMailTestApp(PORTAL_URL));
}, 60_000);

afterAll(async () => {
  await stop?.();
});

const call = async (method: 'POST' | 'GET', user: UserRow, url: string, payload?: object) =>
  app.inject({ method, url, headers: await authHeaders(app, user), ...(payload ? { payload } : {}) });
const linkOf = (mail: ReceivedMail) => new URL(mail.text.match(/https?:\/\/\S+/)![0]);

let headId: string | undefined;
async function openFile(user: UserRow, groupId: string, over: object = {}) {
  headId ??= (await app.db.insert(efileHeads).values({ code: 'WRK', name: 'Works' }).returning())[0]!.id;
  const res = await call('POST', user, '/api/efiles', {
    subject: `Roof repair ${Math.random()}`,
    headId,
    ownerGroupId: groupId,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; number: string; subject: string };
}

describe('a file sent', () => {
  it('is mailed to its recipient at once, in their language, a classified one by its number alone', async () => {
    const group = await createGroup(app, { name: `Works Group ${Math.random()}` });
    const sender = await createUser(app, 'director', { name: 'Dr Rao' });
    const officer = await createUser(app, 'employee', { groupId: group.id, classifiedClearance: true });
    const hindi = await createUser(app, 'employee', { groupId: group.id, language: 'hi' });
    const plain = await openFile(sender, group.id);
    expect((await call('POST', sender, `/api/efiles/${plain._id}/send`, { to: officer.id })).statusCode).toBe(200);
    const [mail] = await smtp.waitForMail(officer.email, { timeoutMs: 10_000 });
    expect(mail!.subject).toBe(`File sent to you: ${plain.number}`);
    expect(mail!.text).toContain(`File ${plain.number} (${plain.subject}) was sent to you by Dr Rao.`);
    expect(linkOf(mail!).pathname).toBe('/efiles');

    const secret = await openFile(sender, group.id, { classification: 'Confidential' });
    expect((await call('POST', sender, `/api/efiles/${secret._id}/send`, { to: officer.id })).statusCode).toBe(200);
    await vi.waitFor(() => expect(smtp.mailsTo(officer.email)).toHaveLength(2), { timeout: 10_000 });
    const classified = smtp.mailsTo(officer.email)[1]!;
    expect(classified.text).toContain(`File ${secret.number} was sent to you by Dr Rao.`);
    expect(classified.text).not.toContain(secret.subject);

    const other = await openFile(sender, group.id);
    expect((await call('POST', sender, `/api/efiles/${other._id}/send`, { to: hindi.id })).statusCode).toBe(200);
    const [inHindi] = await smtp.waitForMail(hindi.email, { timeoutMs: 10_000 });
    expect(inHindi!.subject).toBe(`फ़ाइल आपको भेजी गई: ${other.number}`);
  });

  it("follows the person's choice: none when they turned e-file mail off", async () => {
    const group = await createGroup(app, { name: `Works Group ${Math.random()}` });
    const sender = await createUser(app, 'director');
    const officer = await createUser(app, 'employee', { groupId: group.id, mailPreferences: { efile: 'off' } });
    const file = await openFile(sender, group.id);
    expect((await call('POST', sender, `/api/efiles/${file._id}/send`, { to: officer.id })).statusCode).toBe(200);
    await mailDrained(app.db);
    expect(smtp.mailsTo(officer.email)).toEqual([]);
    const [notice] = await app.db.select().from(notifications).where(eq(notifications.userId, officer.id));
    expect([notice!.kind, notice!.mail]).toEqual(['efile_sent', null]);
  });
});

describe('an overdue file', () => {
  it("is told to its holder, and escalated to the owner group's head, once each", async () => {
    const group = await createGroup(app, { name: `Works Group ${Math.random()}` });
    const head = await createUser(app, 'associate_director', { groupId: group.id });
    await app.db
      .insert(directorEntries)
      .values({ groupId: group.id, userId: head.id, designation: 'Group Head', from: '2020-01-01' });
    const sender = await createUser(app, 'employee', { groupId: group.id, name: 'Meera Iyer' });
    const officer = await createUser(app, 'employee', { groupId: group.id, name: 'Kiran Das' });
    const file = await openFile(sender, group.id);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const sent = await call('POST', sender, `/api/efiles/${file._id}/send`, { to: officer.id, dueDate: tomorrow });
    expect(sent.statusCode, sent.body).toBe(200);
    await mailDrained(app.db);
    // Due ten days ago (moved back in the database: the API takes no past due date).
    await app.db
      .update(efileMovements)
      .set({ dueDate: new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10) })
      .where(and(eq(efileMovements.efileId, file._id), eq(efileMovements.kind, 'sent')));
    await runMorning(app.db, app.config);
    await vi.waitFor(() => expect(smtp.mailsTo(officer.email)).toHaveLength(2), { timeout: 10_000 });
    expect(smtp.mailsTo(officer.email)[1]!.subject).toBe(`File overdue: ${file.number}`);
    const [escalated] = await smtp.waitForMail(head.email, { timeoutMs: 10_000 });
    expect(escalated!.subject).toBe(`Overdue file of your group: ${file.number}`);
    expect(escalated!.text).toContain(`held by Kiran Das, is overdue`);
    // The next morning tells none of them again; the sender is told nothing (it is not theirs to hold).
    await runMorning(app.db, app.config);
    await mailDrained(app.db);
    expect(smtp.mailsTo(officer.email)).toHaveLength(2);
    expect(smtp.mailsTo(head.email)).toHaveLength(1);
    expect(smtp.mailsTo(sender.email)).toEqual([]);
    const bell = await call('GET', head, '/api/notifications');
    expect(bell.json().notifications.map((n: { kind: string }) => n.kind)).toEqual(['efile_escalated']);
  });
});
