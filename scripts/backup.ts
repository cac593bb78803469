// `npm run backup -- --out FILE`: one archive with a consistent copy of the database and every uploaded file, with a
// manifest of checksums (server/db/backup.ts), signed with BACKUP_KEY when it is set (decision 027). Safe while the
// portal runs; works with the embedded database and with DATABASE_URL, and with either storage driver (STORAGE=local
// or s3).
import path from 'node:path';
import { parseArgs } from 'node:util';

import { loadConfig } from '#server/config.ts';
import { writeBackup } from '#server/db/backup.ts';
import { openOperatorDatabase } from '#server/db/operator.ts';
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
try {
  const manifest = await writeBackup({
    pool,
    storage: createStorage(config).driver,
    outFile: out,
    key: config.backupKey,
  });
  const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
  console.log(
    `Backup written to ${out}: ${manifest.tables.length} tables (${rows} rows), ${manifest.files.length} files, in ${((Date.now() - started) / 1000).toFixed(1)} s${config.backupKey ? ', manifest signed with BACKUP_KEY' : ''}.`,
  );
  if (manifest.missingFiles.length) {
    console.warn(
      `${manifest.missingFiles.length} records point at files missing from storage (listed in the manifest).`,
    );
  }
} finally {
  await close();
}
