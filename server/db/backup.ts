import { createHash } from 'node:crypto';
import {
  copyFileSync,
  createReadStream,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import tar from 'tar-stream';

import type { CheckpointStore } from '#server/modules/audit-trail/checkpoints.ts';
import type { StorageDriver } from '#server/modules/files/drivers/types.ts';

import {
  BACKUP_FORMAT,
  BackupError,
  type Manifest,
  MANIFEST_ENTRY,
  SIGNATURE_ENTRY,
  type SignatureCheck,
  signManifest,
} from './backup-manifest.ts';
import { unpack } from './backup-unpack.ts';
import { createPool, migrateDatabase, migrationsFolder } from './client.ts';

/**
 * Backup and restore (decision 051): one `.tar.gz` holding a consistent copy of every table (COPY in one
 * REPEATABLE READ snapshot, so the portal keeps serving), every uploaded file that the snapshot references, the audit
 * trail's checkpoints (decision 068), and a manifest with the schema's migration level and a SHA-256 for every entry. The same archive restores into an empty
 * embedded DATA_DIR or an empty DATABASE_URL database, whichever mode made it, and needs no pg_dump of a matching
 * major version. With BACKUP_KEY, the manifest is signed (an HMAC kept beside it, decision 027).
 */

export { BackupError, type Manifest } from './backup-manifest.ts';

const journal = () =>
  JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };

const sha256File = async (file: string) => {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
};

/** Adds a file from disk to the archive, streamed. */
async function addFile(pack: tar.Pack, name: string, file: string, size: number) {
  await new Promise<void>((resolve, reject) => {
    const entry = pack.entry({ name, size, mode: 0o640 }, (err) => (err ? reject(err) : resolve()));
    createReadStream(file).on('error', reject).pipe(entry);
  });
}

/** The portal's tables in the order they can be loaded, and each one's columns. */
async function tablesOf(client: pg.PoolClient | pg.Client) {
  const { rows } = await client.query<{ table: string; columns: string[] }>(
    `select c.relname as table, array_agg(a.attname::text order by a.attnum) as columns
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where n.nspname = 'public' and c.relkind in ('r', 'p')
      group by c.relname order by c.relname`,
  );
  return rows;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Writes a backup of the database at `pool` and of the stored files it references (read through the storage driver:
 * DATA_DIR/uploads or the S3 bucket) to `outFile` (atomically: a temporary file renamed at the end). Safe while the
 * portal runs. With `key` (BACKUP_KEY), the manifest is signed.
 */
export async function writeBackup(opts: {
  pool: pg.Pool;
  storage: StorageDriver;
  outFile: string;
  key?: string;
  /** The audit checkpoints to keep with it (DATA_DIR/audit-checkpoints and the bucket's, read by the caller). */
  checkpoints?: { name: string; body: Buffer }[];
}): Promise<Manifest> {
  const staging = mkdtempSync(path.join(os.tmpdir(), 'lp-backup-'));
  const client = await opts.pool.connect();
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    version: 1,
    createdAt: new Date().toISOString(),
    migrations: 0,
    tables: [],
    files: [],
    checkpoints: [],
    missingFiles: [],
  };
  try {
    await client.query('begin isolation level repeatable read read only');
    const applied = await client
      .query<{ n: string }>('select count(*) as n from drizzle.__drizzle_migrations')
      .catch(() => ({ rows: [{ n: '0' }] }));
    manifest.migrations = Number(applied.rows[0]!.n);
    for (const { table, columns } of await tablesOf(client)) {
      const file = path.join(staging, `${table}.copy`);
      const cols = columns.map(quoteIdent).join(', ');
      await pipeline(
        client.query(copyTo(`copy (select ${cols} from ${quoteIdent(table)}) to stdout`)),
        createWriteStream(file),
      );
      const { rows } = await client.query<{ n: string }>(`select count(*) as n from ${quoteIdent(table)}`);
      manifest.tables.push({
        table,
        columns,
        rows: Number(rows[0]!.n),
        path: `db/${table}.copy`,
        size: statSync(file).size,
        sha256: await sha256File(file),
      });
    }
    const stored = await client
      .query<{
        area: string;
        name: string;
        size: string;
      }>('select area, stored_name as name, size from files order by area, stored_name')
      .catch(() => ({ rows: [] as { area: string; name: string; size: string }[] }));
    await client.query('commit');

    const tmpOut = `${opts.outFile}.partial`;
    const pack = tar.pack();
    const written = pipeline(pack, createGzip({ level: 6 }), createWriteStream(tmpOut, { mode: 0o600 }));
    for (const t of manifest.tables) await addFile(pack, t.path, path.join(staging, `${t.table}.copy`), t.size);
    for (const { area, name, size: recordedSize } of stored.rows) {
      const body = await opts.storage.read(area, name);
      if (!body) {
        manifest.missingFiles.push(`${area}/${name}`);
        continue;
      }
      // The row's size is the stored object's: a tar entry's length is written before its bytes.
      const size = Number(recordedSize);
      const entryPath = `uploads/${area}/${name}`;
      // Hash while packing: one read of each upload.
      const hash = createHash('sha256');
      await new Promise<void>((resolve, reject) => {
        const entry = pack.entry({ name: entryPath, size, mode: 0o640 }, (err) =>
          err
            ? reject(new BackupError(`${area}/${name} is not the size its record says (${err.message}).`))
            : resolve(),
        );
        body
          .on('error', reject)
          .pipe(
            new Transform({
              transform(chunk: Buffer, _enc, done) {
                hash.update(chunk);
                done(null, chunk);
              },
            }),
          )
          .pipe(entry);
      });
      manifest.files.push({ path: entryPath, size, sha256: hash.digest('hex') });
    }
    for (const { name, body } of opts.checkpoints ?? []) {
      const entryPath = `audit-checkpoints/${name}`;
      pack.entry({ name: entryPath, size: body.length, mode: 0o640 }, body);
      manifest.checkpoints.push({
        path: entryPath,
        size: body.length,
        sha256: createHash('sha256').update(body).digest('hex'),
      });
    }
    const body = Buffer.from(JSON.stringify(manifest, null, 2));
    pack.entry({ name: MANIFEST_ENTRY, size: body.length }, body);
    if (opts.key) {
      const signature = signManifest(opts.key, body);
      pack.entry({ name: SIGNATURE_ENTRY, size: signature.length }, signature);
    }
    pack.finalize();
    await written;
    renameSync(tmpOut, opts.outFile);
    return manifest;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    rmSync(`${opts.outFile}.partial`, { force: true });
    throw err;
  } finally {
    client.release();
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The manifest's tables as the schema at its level names them, in the manifest's order, with their columns: every
 * table of the schema exactly once, each with exactly its columns. A name the schema does not know is refused.
 */
function matchTables(manifest: Manifest, schema: { table: string; columns: string[] }[]) {
  const byName = new Map(schema.map((t) => [t.table, t]));
  const level = `the portal's schema at level ${manifest.migrations}`;
  const matched = manifest.tables.map((entry) => {
    const known = byName.get(entry.table);
    if (!known) throw new BackupError(`The manifest lists a table that ${level} does not have: ${entry.table}.`);
    byName.delete(entry.table);
    const columns = entry.columns.map((c) => known.columns.find((k) => k === c));
    const unknown = entry.columns.find((_c, i) => !columns[i]);
    if (unknown !== undefined || new Set(columns).size !== known.columns.length) {
      throw new BackupError(
        `The manifest's columns of ${known.table} are not those of ${level}${unknown === undefined ? '' : ` (${unknown})`}.`,
      );
    }
    return { table: known.table, columns: columns as string[], path: entry.path };
  });
  const left = [...byName.keys()];
  if (left.length) throw new BackupError(`The manifest does not list the table ${left[0]} of ${level}.`);
  return matched;
}

/** A migrations folder holding only the first `count` migrations, to rebuild the schema the backup was taken on. */
export function migrationsUpTo(count: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lp-migrations-'));
  const j = journal() as { entries: { tag: string }[] } & Record<string, unknown>;
  mkdirSync(path.join(dir, 'meta'));
  const entries = j.entries.slice(0, count);
  writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...j, entries }));
  for (const e of entries) copyFileSync(path.join(migrationsFolder, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

/**
 * Restores an archive into the empty database at `url` and the empty storage (DATA_DIR/uploads or the S3 bucket):
 * the schema at the backup's migration level, every row as it was (foreign keys dropped for the load and re-checked
 * after; triggers off, so the audit trail's rows keep their chain and the rows its migration seeded give way to the
 * archive's), sequences, then the newer migrations of this version, then the files through the storage driver and the
 * audit checkpoints to `checkpoints`. Refuses a database, storage or checkpoint store that holds anything. `dataDir` holds the unpacked archive meanwhile. With `key` (BACKUP_KEY), only an
 * archive signed with it restores (decision 027). Every refusal is a BackupError, and leaves the database and the
 * storage as empty as they were found.
 */
export async function restoreBackup(opts: {
  archive: string;
  url: string;
  storage: StorageDriver;
  dataDir: string;
  key?: string;
  /** Where the audit checkpoints go (DATA_DIR/audit-checkpoints and, with STORAGE=s3, the bucket). */
  checkpoints: CheckpointStore;
}): Promise<{ manifest: Manifest; signature: SignatureCheck }> {
  for await (const _object of opts.storage.list()) {
    throw new BackupError(
      `${opts.storage.description} is not empty: restore only into empty storage. Nothing was changed.`,
    );
  }
  if ((await opts.checkpoints.list()).length) {
    throw new BackupError(
      `${opts.checkpoints.places.join(' and ')} already hold audit checkpoints (another installation's): restore only into empty storage. Nothing was changed.`,
    );
  }
  const pool = createPool(opts.url);
  mkdirSync(opts.dataDir, { recursive: true });
  const staging = mkdtempSync(path.join(opts.dataDir, '.restore-'));
  let schemaCreated = false;
  const put: { area: string; id: string }[] = [];
  const checkpointsPut: string[] = [];
  try {
    const { rows } = await pool.query<{ n: string }>(
      `select count(*) as n from information_schema.tables where table_schema in ('public', 'drizzle')`,
    );
    if (Number(rows[0]!.n) > 0) {
      throw new BackupError(
        'The target database is not empty: restore only into an empty database. Nothing was changed.',
      );
    }
    const { manifest, signature } = await unpack(opts.archive, staging, opts.key);
    const known = journal().entries.length;
    if (manifest.migrations > known) {
      throw new BackupError(
        `The backup was made by a newer portal (schema level ${manifest.migrations}, this version knows ${known}). Restore it with that version.`,
      );
    }
    schemaCreated = true;
    // The schema as it was when the backup was taken.
    const older = migrationsUpTo(manifest.migrations);
    try {
      const { drizzle } = await import('drizzle-orm/node-postgres');
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      await migrate(drizzle(pool), { migrationsFolder: older });
    } finally {
      rmSync(older, { recursive: true, force: true });
    }

    const client = await pool.connect();
    try {
      await client.query('begin');
      // Every name in SQL below is the catalog's: the archive's names only pick among them.
      const tables = matchTables(manifest, await tablesOf(client));
      const fks = await client.query<{ table: string; name: string; def: string }>(
        `select cl.relname as table, c.conname as name, pg_get_constraintdef(c.oid) as def
           from pg_constraint c join pg_class cl on cl.oid = c.conrelid join pg_namespace n on n.oid = cl.relnamespace
          where c.contype = 'f' and n.nspname = 'public'`,
      );
      for (const fk of fks.rows) {
        await client.query(`alter table ${quoteIdent(fk.table)} drop constraint ${quoteIdent(fk.name)}`);
      }
      // The rows are restored as they were, derived tables (the search index) included: our triggers stay quiet. So
      // does the audit trail's chain: its rows keep their seq and hashes, and the immutability trigger lets the rows
      // the migrations seeded (the chain head's first link) give way to the archive's.
      for (const t of tables) await client.query(`alter table ${quoteIdent(t.table)} disable trigger user`);
      for (const t of tables) await client.query(`delete from ${quoteIdent(t.table)}`);
      for (const t of tables) {
        const cols = t.columns.map(quoteIdent).join(', ');
        await pipeline(
          createReadStream(path.join(staging, t.path)),
          client.query(copyFrom(`copy ${quoteIdent(t.table)} (${cols}) from stdin`)),
        );
      }
      for (const t of tables) await client.query(`alter table ${quoteIdent(t.table)} enable trigger user`);
      for (const fk of fks.rows) {
        await client.query(`alter table ${quoteIdent(fk.table)} add constraint ${quoteIdent(fk.name)} ${fk.def}`);
      }
      // Sequences behind serial/identity columns continue after the restored rows.
      const seqs = await client.query<{ table: string; column: string; seq: string }>(
        `select cl.relname as table, a.attname as column, pg_get_serial_sequence(quote_ident(cl.relname), a.attname) as seq
           from pg_class cl join pg_namespace n on n.oid = cl.relnamespace
           join pg_attribute a on a.attrelid = cl.oid and a.attnum > 0 and not a.attisdropped
          where n.nspname = 'public' and cl.relkind = 'r'
            and pg_get_serial_sequence(quote_ident(cl.relname), a.attname) is not null`,
      );
      for (const s of seqs.rows) {
        await client.query(
          `select setval('${s.seq}', coalesce((select max(${quoteIdent(s.column)}) from ${quoteIdent(s.table)}), 0) + 1, false)`,
        );
      }
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
    // Then whatever this version added since.
    await migrateDatabase(pool);

    // The restored database takes the JWT secret of the first node that starts on it (the secret is not archived).
    await pool.query(`delete from portal_settings where key = 'jwt_secret_fingerprint'`).catch(() => {});

    const types = await pool.query<{ area: string; name: string; mime: string }>(
      'select area, stored_name as name, mime_type as mime from files',
    );
    const mimeOf = new Map(types.rows.map((r) => [`uploads/${r.area}/${r.name}`, r.mime]));
    // Only the uploads the restored records point at (not, say, a table's copy listed as an upload).
    const stray = manifest.files.find((f) => !mimeOf.has(f.path));
    if (stray) throw new BackupError(`The manifest lists an upload that no record points at: ${stray.path}.`);
    for (const entry of manifest.files) {
      const [, area, id] = entry.path.split('/') as [string, string, string];
      await opts.storage.put(
        area,
        id,
        path.join(staging, entry.path),
        mimeOf.get(entry.path) ?? 'application/octet-stream',
      );
      put.push({ area, id });
    }
    for (const entry of manifest.checkpoints) {
      const name = entry.path.slice('audit-checkpoints/'.length);
      await opts.checkpoints.write(name, readFileSync(path.join(staging, entry.path)));
      checkpointsPut.push(name);
    }
    return { manifest, signature };
  } catch (err) {
    // Leave the database as empty as it was found, so the restore can simply be run again.
    if (schemaCreated) {
      await pool
        .query('drop schema if exists drizzle cascade; drop schema public cascade; create schema public')
        .catch(() => {});
    }
    for (const f of put) await opts.storage.delete(f.area, f.id).catch(() => {});
    for (const name of checkpointsPut) await opts.checkpoints.remove(name).catch(() => {});
    throw err;
  } finally {
    await pool.end();
    rmSync(staging, { recursive: true, force: true });
  }
}
