import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { type BackgroundJobs, startBackgroundJobs } from '#server/jobs/job-queue.ts';
import { mailJobs } from '#server/modules/mail/mail.jobs.ts';
import { buildTestApp } from '#server/test/app.ts';
import { mailDrained } from '#server/test/mail-drained.ts';
import {
  call,
  cast,
  type Kit,
  makeKit,
  ok,
  openFile,
  pdfsigValidations,
  putPdfIn,
  sealedPdf,
} from '#server/test/signed-letters.ts';
import { startTestSmtp, type TestSmtp } from '#server/test/smtp-server.ts';

/*
 * A letter dispatched by email (decision 120) through the portal's own mail jobs to a real SMTP server (smtp-server,
 * parsed by mailparser): the signed PDF arrives attached, still valid for pdfsig, and the delivery is recorded.
 */
let smtp: TestSmtp;
let app: FastifyInstance;
let jobs: BackgroundJobs;
let kit: Kit;
const log = { error: vi.fn(), info: vi.fn() };

beforeAll(async () => {
  smtp = await startTestSmtp({});
  app = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'portal@lab.test', PORTAL_URL: 'http://localhost:4324' });
  kit = makeKit(app);
  const database = {
    db: app.db,
    pool: app.pgPool,
    kind: app.dbKind,
    url: String(app.pgPool.options.connectionString),
    close: async () => {},
  };
  jobs = await startBackgroundJobs({ database, store: app.storage, config: app.config, log }, [
    mailJobs({ retryDelaySeconds: 1, retryBackoff: false, retryLimit: 30, pollingIntervalSeconds: 1 }),
  ]);
}, 60_000);

afterAll(async () => {
  await jobs?.stop();
  await smtp?.close();
  kit?.close();
});

describe('a dispatch by email', () => {
  it('arrives at the relay with the signed PDF attached, and the register says it was sent', async () => {
    const people = await cast(app);
    const signed = await sealedPdf(kit);
    const file = await openFile(app, people.employee);
    const { itemId } = await putPdfIn(app, people.employee, file._id, signed);
    const made = ok(
      await call(app, 'POST', people.employee, `/api/efiles/${file._id}/items/${itemId}/dispatch`, {
        mode: 'email',
        recipients: [
          { name: 'Chief Controller of Explosives', email: 'ccoe@peso.example' },
          { name: 'Deputy Controller', email: 'dce@peso.example', address: 'Nagpur' },
        ],
      }),
      201,
    ).json() as { _id: string; outwardNumber: string; recipients: { delivery: string }[] };
    // The mail jobs may have taken them already: each recipient's delivery is recorded from its outbox row.
    for (const r of made.recipients) expect(['pending', 'queued', 'sent']).toContain(r.delivery);

    const [mail] = await smtp.waitForMail('ccoe@peso.example');
    await smtp.waitForMail('dce@peso.example');
    expect(mail!.subject).toContain(made.outwardNumber);
    expect(mail!.text).toContain('Dear Chief Controller of Explosives,');
    expect(mail!.attachments).toHaveLength(1);
    const attachment = mail!.attachments[0]!;
    expect(attachment.contentType).toBe('application/pdf');
    expect(attachment.filename).toBe(`${made.outwardNumber.replace(/\//g, '-')}.pdf`);
    expect(attachment.content.equals(signed)).toBe(true);
    expect(pdfsigValidations(kit, attachment.content)).toEqual(['Signature is Valid.']);

    await mailDrained(app.db);
    const after = ok(await call(app, 'GET', people.employee, `/api/dispatches/${made._id}`)).json() as {
      recipients: { delivery: string; deliveredAt: string | null }[];
    };
    expect(after.recipients.map((r) => r.delivery)).toEqual(['sent', 'sent']);
    expect(after.recipients.every((r) => r.deliveredAt)).toBe(true);
  }, 60_000);
});
