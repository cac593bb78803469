import type { FastifyInstance } from 'fastify';
import { vi } from 'vitest';

import { startBackgroundJobs } from '#server/jobs/job-queue.ts';
import { mailJobs } from '#server/modules/mail/mail.jobs.ts';

import { buildTestApp } from './app.ts';
import { startTestSmtp, type TestSmtp } from './smtp-server.ts';

/**
 * The set-up of the mail tests (decisions 076, 081, 111): a real SMTP server (smtp-server; messages parsed by
 * mailparser), an app mailing to it from portal@lab.test with links to `portalUrl`, and the portal's own mail jobs
 * running on that app's database, retrying every second. `stop` ends the jobs and the SMTP server.
 */
export async function startMailTestApp(
  portalUrl: string,
): Promise<{ smtp: TestSmtp; app: FastifyInstance; stop: () => Promise<void> }> {
  const smtp = await startTestSmtp({});
  const app = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'portal@lab.test', PORTAL_URL: portalUrl });
  const database = {
    db: app.db,
    pool: app.pgPool,
    kind: app.dbKind,
    url: String(app.pgPool.options.connectionString),
    close: async () => {},
  };
  const log = { error: vi.fn(), info: vi.fn() };
  const jobs = await startBackgroundJobs({ database, store: app.storage, config: app.config, log }, [
    mailJobs({ retryDelaySeconds: 1, retryBackoff: false, retryLimit: 30, pollingIntervalSeconds: 1 }),
  ]);
  return {
    smtp,
    app,
    stop: async () => {
      await jobs.stop();
      await smtp.close();
    },
  };
}
