// `npm run restore -- FILE`: restores a backup (npm run backup) into an empty DATA_DIR (embedded database) or an empty
// DATABASE_URL database plus empty storage (DATA_DIR/uploads, or the S3 bucket with STORAGE=s3). Refuses anything that is not empty; changes nothing then.
import { closeSync, existsSync, openSync, readSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '#server/config.ts';
import { BackupError, restoreBackup } from '#server/db/backup.ts';
import { openOperatorDatabase } from '#server/db/operator.ts';
import { EmbeddedDatabaseError } from '#server/db/embedded.ts';
import { DataDirLockedError } from '#server/db/data-dir-lock.ts';
import { createStorage } from '#server/modules/files/storage.ts';

const { positionals } = parseArgs({ allowPositionals: true });
if (positionals.length !== 1) {
  console.error('Usage: npm run restore -- FILE   (into an empty DATA_DIR, or an empty DATABASE_URL database)');
  process.exit(2);
}
const archive = path.resolve(positionals[0]!);
if (!existsSync(archive)) {
  console.error(`Restore refused: ${archive} does not exist.`);
  process.exit(1);
}
// A gzip stream starts 1f 8b: refuse anything else before a database is created for it.
const head = Buffer.alloc(2);
const fd = openSync(archive, 'r');
readSync(fd, head, 0, 2, 0);
closeSync(fd);
if (head[0] !== 0x1f || head[1] !== 0x8b) {
  console.error(`Restore refused: ${archive} is not a readable Lab Portal backup (not a .tar.gz file).`);
  process.exit(1);
}
const config = loadConfig();
const started = Date.now();
// What this run creates in an empty DATA_DIR goes again if the restore fails, so it can simply be run again.
const created = ['pgdata', 'pg-password', 'pg-url', 'run', 'postgres.log']
  .map((name) => path.join(config.dataDir, name))
  .filter((p) => !existsSync(p));
try {
  const { url, close } = await openOperatorDatabase(config, { mustBeEmpty: true });
  let restored = false;
  try {
    const manifest = await restoreBackup({
      archive,
      url,
      storage: createStorage(config).driver,
      dataDir: config.dataDir,
    });
    restored = true;
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
    console.log(
      `Restored ${archive} (taken ${manifest.createdAt}): ${rows} rows, ${manifest.files.length} files, in ${((Date.now() - started) / 1000).toFixed(1)} s. Start the portal with npm start.`,
    );
  } finally {
    await close();
    if (!restored && !config.databaseUrl) for (const p of created) rmSync(p, { recursive: true, force: true });
  }
} catch (err) {
  if (err instanceof BackupError || err instanceof EmbeddedDatabaseError || err instanceof DataDirLockedError) {
    console.error(`Restore refused: ${err.message}`);
    process.exit(1);
  }
  throw err;
}
