// `npm run restore -- FILE`: restores a backup (npm run backup) into an empty DATA_DIR (embedded database) or an empty
// DATABASE_URL database plus empty storage (DATA_DIR/uploads, or the S3 bucket with STORAGE=s3), the audit checkpoints
// into DATA_DIR/audit-checkpoints (and the bucket with STORAGE=s3). Refuses anything that
// is not empty, and any archive that is not exactly what a backup writes (signed with BACKUP_KEY when it is set,
// decision 027): one line saying why, exit status 1, and the target left as it was found.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { ConfigError, loadConfig } from '#server/config.ts';
import { BackupError, restoreBackup } from '#server/db/backup.ts';
import { DataDirLockedError } from '#server/db/data-dir-lock.ts';
import { EmbeddedDatabaseError } from '#server/db/embedded.ts';
import { clusterHome, LOCATION_FILE } from '#server/db/embedded-location.ts';
import { openOperatorDatabase } from '#server/db/operator.ts';
import { checkpointStore } from '#server/modules/audit-trail/checkpoints.ts';
import { createStorage } from '#server/modules/files/storage.ts';

/** A refusal of the archive or the target, printed as one line. */
class Refusal extends Error {}

async function restore(file: string): Promise<void> {
  const archive = path.resolve(file);
  if (!existsSync(archive)) throw new Refusal(`${archive} does not exist.`);
  // A gzip stream starts 1f 8b: refuse anything else before a database is created for it.
  const head = Buffer.alloc(2);
  const fd = openSync(archive, 'r');
  readSync(fd, head, 0, 2, 0);
  closeSync(fd);
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    throw new Refusal(`${archive} is not a readable Lab Portal backup (not a .tar.gz file).`);
  }
  // A restore signs no sign-in tokens: it must not leave a generated DATA_DIR/jwt-secret in a target it found empty
  // (the portal's first start makes one).
  const config = loadConfig({ ...process.env, JWT_SECRET: process.env.JWT_SECRET || randomBytes(48).toString('hex') });
  const started = Date.now();
  // What this run creates in DATA_DIR goes again if the restore fails, so that it can simply be run again.
  const made = config.databaseUrl
    ? ['uploads', 'audit-checkpoints']
    : ['pgdata', 'pg-password', 'pg-url', 'run', 'postgres.log', 'uploads', 'audit-checkpoints', LOCATION_FILE];
  const created = made.map((name) => path.join(config.dataDir, name)).filter((p) => !existsSync(p));
  let restored = false;
  const checkpoints = checkpointStore(config);
  try {
    const { url, close } = await openOperatorDatabase(config, { mustBeEmpty: true });
    try {
      const { manifest, signature } = await restoreBackup({
        archive,
        url,
        storage: createStorage(config).driver,
        dataDir: config.dataDir,
        key: config.backupKey,
        checkpoints,
      });
      restored = true;
      if (signature === 'unchecked') {
        console.warn('Warning: the archive is signed, but BACKUP_KEY is not set: its signature was not checked.');
      }
      const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
      console.log(
        `Restored ${archive} (taken ${manifest.createdAt}${signature === 'verified' ? ', signature verified' : ''}): ${rows} rows, ${manifest.files.length} files, ${manifest.checkpoints.length} audit checkpoints, in ${((Date.now() - started) / 1000).toFixed(1)} s. Start the portal with npm start.`,
      );
    } finally {
      await close(); // the embedded postmaster stops here, whatever happened
    }
  } finally {
    await checkpoints.close();
    if (!restored) {
      // Run as root with DATA_DIR closed to others, the cluster this run made lives in its relocated home
      // (decision 040), recorded in DATA_DIR/pg-location: that home goes too, or a retry would be refused.
      const home = clusterHome(config.dataDir);
      if (home !== config.dataDir && created.includes(path.join(config.dataDir, LOCATION_FILE))) {
        rmSync(home, { recursive: true, force: true });
      }
      for (const p of created) rmSync(p, { recursive: true, force: true });
    }
  }
}

const { positionals } = parseArgs({ allowPositionals: true });
if (positionals.length !== 1) {
  console.error('Usage: npm run restore -- FILE   (into an empty DATA_DIR, or an empty DATABASE_URL database)');
  process.exit(2);
}
try {
  await restore(positionals[0]!);
} catch (err) {
  const refused = [Refusal, BackupError, ConfigError, EmbeddedDatabaseError, DataDirLockedError].some(
    (kind) => err instanceof kind,
  );
  // One line either way, never a stack trace: the target is as it was found.
  const message = err instanceof Error ? err.message : String(err);
  console.error(refused ? `Restore refused: ${message}` : `Restore failed: ${message.split('\n')[0]}`);
  process.exit(1);
}
