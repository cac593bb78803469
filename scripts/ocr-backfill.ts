// `npm run ocr:backfill`: makes the scans stored before OCR existed searchable (decision 113). Marks every letter,
// close-group document, notice, circular and e-file document that is a PDF or an image, and has no OCR row yet, as
// pending, 500 at a time, and tells the running portal's OCR queue (it reads them at its lowest priority, after the
// text and previews of new uploads). Nothing is read here: a portal that is not running reads them at its next start.
// Resumable: a stopped run (or a restart of the portal) loses nothing; run it again and it marks only what is left.
// Works on DATABASE_URL, else the embedded database in DATA_DIR. Ends with one JSON line.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

import { loadConfig } from '#server/config.ts';
import { drizzleOver } from '#server/db/client.ts';
import { openOperatorDatabase } from '#server/db/operator.ts';
import { markStoredScans, ocrCounts } from '#server/modules/files/ocr.ts';

const BATCH = 500;

parseArgs({ options: {} }); // no options: anything else is a mistake worth stopping for
// Signs nothing: a DATA_DIR without a jwt-secret must not get one from this run.
const config = loadConfig({ ...process.env, JWT_SECRET: process.env.JWT_SECRET || randomBytes(48).toString('hex') });
const { pool, close } = await openOperatorDatabase(config, { mustExist: true });
try {
  const db = drizzleOver(pool);
  let after: string | null = null;
  let seen = 0;
  let marked = 0;
  for (;;) {
    const batch = await markStoredScans(db, after, BATCH);
    seen += batch.seen;
    marked += batch.marked;
    if (batch.seen < BATCH) break;
    after = batch.last;
    if (process.stderr.isTTY) process.stderr.write(`\r${seen} scans looked at…`);
  }
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  const counts = await ocrCounts(db);
  console.log(`${seen} stored scans looked at, ${marked} newly queued for OCR.`);
  console.log(`Now waiting: ${counts.waiting}; not recognised: ${counts.failed} (an admin may queue those again).`);
  console.log(JSON.stringify({ seen, marked, ...counts }));
} finally {
  await close();
}
