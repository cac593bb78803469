// `npm run audit:checkpoint`: writes an audit checkpoint now (decision 068, docs/audit.md) to
// DATA_DIR/audit-checkpoints and, with STORAGE=s3, to the bucket, recorded as an `audit_checkpoint` event. Works with
// the embedded database (the running portal's too) and DATABASE_URL. Ends with one JSON line; exit status 1 on failure.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

import { loadConfig } from '#server/config.ts';
import { drizzleOver } from '#server/db/client.ts';
import { openOperatorDatabase } from '#server/db/operator.ts';
import { checkpointStore, writeCheckpoint } from '#server/modules/audit-trail/checkpoints.ts';

async function main() {
  // Signs nothing: a DATA_DIR without a jwt-secret must not get one from this run.
  const config = loadConfig({ ...process.env, JWT_SECRET: process.env.JWT_SECRET || randomBytes(48).toString('hex') });
  const store = checkpointStore(config);
  const { pool, close } = await openOperatorDatabase(config, { mustExist: true });
  try {
    const { name, checkpoint } = await writeCheckpoint(drizzleOver(pool), store, {
      reason: 'command',
      // No person signs in here: the event names the command and the account that ran it.
      who: {
        actor: null,
        address: null,
        userAgent: `npm run audit:checkpoint (${os.userInfo().username}@${os.hostname()})`,
      },
    });
    const { seq, hash, count, firstSeq } = checkpoint;
    console.log(
      `Audit checkpoint written: seq ${seq} (${hash}), ${count} row${count === 1 ? '' : 's'}${firstSeq === null ? '' : ` from seq ${firstSeq}`}.`,
    );
    console.log(`  ${path.join(store.folder, name)}`);
    if (store.places[1]) console.log(`  ${store.places[1]}${name}`);
    console.log(JSON.stringify({ ok: true, name, places: store.places, checkpoint }));
  } finally {
    await store.close();
    await close();
  }
}

try {
  await main();
} catch (err) {
  const cause = (err as { cause?: unknown }).cause;
  const message = [err, cause]
    .filter((e): e is Error => e instanceof Error)
    .map((e) => e.message.split('\n')[0])
    .join(' ');
  console.error(`Audit checkpoint not written: ${message}`);
  console.log(JSON.stringify({ ok: false, error: message }));
  process.exitCode = 1;
}
