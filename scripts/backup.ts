// `npm run backup -- --out FILE`: one archive with a consistent copy of the database and every uploaded file, with a
// manifest of checksums (server/db/backup.ts), and the audit trail's checkpoints (DATA_DIR/audit-checkpoints and, with
// STORAGE=s3, the bucket's; decision 068), signed with BACKUP_KEY when it is set (decision 027). Safe while the
// portal runs; works with the embedded database and with DATABASE_URL, and with either storage driver (STORAGE=local
// or s3).
import path from 'node:path';
import { parseArgs } from 'node:util';

import { loadConfig } from '#server/config.ts';
import { writeBackup } from '#server/db/backup.ts';
import { openOperatorDatabase } from '#server/db/operator.ts';
import { checkpointStore } from '#server/modules/audit-trail/checkpoints.ts';
import { createStorage } from '#server/modules/files/storage.ts';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
if (!values.out) {
  console.error('Usage: npm run backup -- --out FILE   (e.g. --out /backups/portal-$(date +%F).tar.gz)');
  process.exit(2);
}
const config = loadConfig();
const out = path.resolve(values.out);
const started = Date.now();
const { pool, close } = await openOperatorDatabase(config, { mustExist: true });
const store = checkpointStore(config);
try {
  // One copy of each checkpoint: the folder's, else the bucket's (a bucket copy that differs is left for
  // `npm run audit:verify` to report; the archive keeps the folder's).
  const checkpoints = new Map<string, Buffer>();
  for (const { name, body, place } of await store.list()) {
    const kept = checkpoints.get(name);
    if (!kept) checkpoints.set(name, body);
    else if (!kept.equals(body)) {
      console.warn(`The ${place} copy of audit checkpoint ${name} differs from DATA_DIR's, which the archive keeps.`);
    }
  }
  const manifest = await writeBackup({
    pool,
    storage: createStorage(config).driver,
    outFile: out,
    key: config.backupKey,
    checkpoints: [...checkpoints].map(([name, body]) => ({ name, body })),
  });
  const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
  console.log(
    `Backup written to ${out}: ${manifest.tables.length} tables (${rows} rows), ${manifest.files.length} files, ${manifest.checkpoints.length} audit checkpoints, in ${((Date.now() - started) / 1000).toFixed(1)} s${config.backupKey ? ', manifest signed with BACKUP_KEY' : ''}.`,
  );
  if (manifest.missingFiles.length) {
    console.warn(
      `${manifest.missingFiles.length} records point at files missing from storage (listed in the manifest).`,
    );
  }
} finally {
  await store.close();
  await close();
}
