import { acknowledgementJobs } from '#server/modules/acknowledgements/acknowledgements.reminders.ts';
import { auditTrailJobs } from '#server/modules/audit-trail/audit-trail.jobs.ts';
import { ocrJobs } from '#server/modules/files/ocr.jobs.ts';
import { previewJobs } from '#server/modules/files/previews.jobs.ts';
import { pendingPreviewIds } from '#server/modules/files/previews.ts';
import { logsJobs } from '#server/modules/logs/logs.jobs.ts';
import { mailJobs } from '#server/modules/mail/mail.jobs.ts';
import { morningJobs } from '#server/modules/notifications/notifications.jobs.ts';
import { pendingFileIds } from '#server/modules/search/extraction.ts';
import { searchJobs } from '#server/modules/search/search.jobs.ts';

import type { JobModule } from './job-queue.ts';

/** Every module's background work, started on each node by app.ts (server/jobs/job-queue.ts). */
export const jobModules = (): JobModule[] => [
  searchJobs(),
  auditTrailJobs(),
  acknowledgementJobs(),
  mailJobs(),
  // Audit events and warnings to the lab's log collector (decision 125).
  logsJobs(),
  morningJobs(),
  previewJobs(),
  // OCR last and least (decision 113): a scan starts once no text extraction nor preview waits.
  ocrJobs({
    ahead: [
      async ({ database }) => (await pendingFileIds(database.db, 1)).length > 0,
      async ({ database }) => (await pendingPreviewIds(database.db, 1)).length > 0,
    ],
  }),
];
