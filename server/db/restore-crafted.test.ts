import { randomBytes, randomUUID } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import {
  type ArchiveEntry,
  npmScript,
  processesUsing,
  readArchive,
  sha256,
  writeArchive,
} from '#server/test/backup-archives.ts';

import { BackupError, parseManifest } from './backup-manifest.ts';

/**
 * Crafted archives given to `npm run restore` (the real script, a child process) are each refused in
 * one line, leave the embedded target as empty as it was found with no postmaster running, and a good archive then
 * restores into that same target. The manifest is signed with BACKUP_KEY (decision 027).
 */
const KEY = randomBytes(32).toString('base64url');
const { adminUrl, template } = inject('testDatabase');
const dirs: string[] = [];
const databases: string[] = [];
const tmp = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
const admin = async <T>(fn: (c: pg.Client) => Promise<T>) => {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
};
/** A database of the portal's schema, or an empty one. */
async function newDatabase(migrated = true): Promise<string> {
  const name = `lp_crafted_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await admin((c) => c.query(`create database ${name}${migrated ? ` template ${template}` : ''}`));
  databases.push(name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await admin(async (c) => {
    for (const name of databases) await c.query(`drop database if exists ${name} with (force)`);
  });
});

const upload = {
  area: 'letters',
  id: randomUUID(),
  bytes: Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2000)]),
};
let signed: ArchiveEntry[] = [];
let signedFile = '';

beforeAll(async () => {
  // A portal database with a row to tamper with and one upload, backed up by the real script with BACKUP_KEY set.
  const url = await newDatabase();
  const source = tmp('lp-crafted-src-');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`insert into portal_settings (key, value) values ('restore_marker', 'kept')`);
  await c.query(
    `insert into files (area, stored_name, original_name, mime_type, size) values ($1, $2, 'scan.pdf', 'application/pdf', $3)`,
    [upload.area, upload.id, upload.bytes.length],
  );
  // An audit trail, chained by its insert trigger, and a checkpoint of it in DATA_DIR/audit-checkpoints (decision 068).
  await c.query(
    `insert into audit_events (seq, prev_hash, hash, occurred_at, actor_name, client_address, action, object_id, classification, outcome, details)
     select 0, '', '', now(), 'सुनीता ' || i, '10.0.0.' || i, 'letter_viewed', 'L-2026-' || i, 'Secret', 'success', '{"n":' || i || '}'
     from generate_series(1, 25) i`,
  );
  await c.end();
  const checkpoint = await npmScript('audit-checkpoint', [], { DATA_DIR: source, DATABASE_URL: url });
  expect(checkpoint.status).toBe(0);
  mkdirSync(path.join(source, 'uploads', upload.area), { recursive: true });
  writeFileSync(path.join(source, 'uploads', upload.area, upload.id), upload.bytes);
  signedFile = path.join(tmp('lp-crafted-archives-'), 'signed.tar.gz');
  const backup = await npmScript('backup', ['--out', signedFile], {
    DATA_DIR: source,
    DATABASE_URL: url,
    BACKUP_KEY: KEY,
  });
  expect(backup.output).toContain('manifest signed with BACKUP_KEY');
  expect(backup.status).toBe(0);
  signed = await readArchive(signedFile);
  expect(signed.map((e) => e.name).slice(-3)).toEqual([
    expect.stringMatching(/^audit-checkpoints\/0000000000000000025-\d{8}T\d{9}Z\.json$/),
    'manifest.json',
    'manifest.hmac',
  ]);
}, 120_000);

const manifestOf = (entries: ArchiveEntry[]) =>
  JSON.parse(entries.find((e) => e.name === 'manifest.json')!.body.toString('utf8')) as {
    migrations: number;
    tables: { table: string; path: string; size: number; sha256: string }[];
    files: { path: string; size: number; sha256: string }[];
    checkpoints: { path: string; size: number; sha256: string }[];
  };
/** The archive's entries with the manifest changed by `edit` (and `extra` entries before it), signature kept. */
function withManifest(edit: (m: ReturnType<typeof manifestOf>) => void, extra: ArchiveEntry[] = []) {
  const manifest = manifestOf(signed);
  edit(manifest);
  return signed.flatMap((e) =>
    e.name === 'manifest.json' ? [...extra, { name: e.name, body: Buffer.from(JSON.stringify(manifest)) }] : [e],
  );
}
const unsigned = (entries: ArchiveEntry[]) => entries.filter((e) => e.name !== 'manifest.hmac');

/** Each crafted archive, the key the restore runs with, and the reason its one line must give. */
const crafted: { name: string; entries: () => ArchiveEntry[] | Buffer; key?: string; reason: RegExp }[] = [
  {
    name: 'a traversal entry',
    entries: () => [{ name: '../../escape.txt', body: Buffer.from('outside') }, ...unsigned(signed)],
    reason: /unexpected entry: "\.\.\/\.\.\/escape\.txt"/,
  },
  {
    name: 'an upload whose path climbs out',
    entries: () => [...unsigned(signed).slice(0, 2), { name: 'uploads/../../pgdata/x', body: Buffer.from('x') }],
    reason: /unexpected entry: "uploads\/\.\.\/\.\.\/pgdata\/x"/,
  },
  {
    name: 'a checkpoint whose path climbs out',
    entries: () => [
      ...unsigned(signed).slice(0, 2),
      { name: 'audit-checkpoints/../../0000000000000000001-20261127T101502123Z.json', body: Buffer.from('{}') },
    ],
    reason: /unexpected entry: "audit-checkpoints\/\.\.\/\.\.\/0000000000000000001-20261127T101502123Z\.json"/,
  },
  {
    name: 'a manifest with 0 migrations',
    entries: () => unsigned(withManifest((m) => (m.migrations = 0))),
    reason: /manifest\.json is not a Lab Portal manifest \(migrations: must be at least 1/,
  },
  {
    name: 'a table name with a quote',
    entries: () => unsigned(withManifest((m) => (m.tables[0]!.table = 'users"; drop table files; --'))),
    reason: /tables\.0\.table: not a table or column name of the portal/,
  },
  {
    name: 'a table the schema does not have',
    entries: () =>
      unsigned(
        withManifest((m) => {
          const t = m.tables.find((x) => x.table === 'portal_settings')!;
          t.table = 'secrets';
          t.path = 'db/secrets.copy';
        }).map((e) => (e.name === 'db/portal_settings.copy' ? { ...e, name: 'db/secrets.copy' } : e)),
      ),
    reason: /lists a table that the portal's schema at level \d+ does not have: secrets/,
  },
  {
    name: 'a database file listed as an upload',
    entries: () =>
      unsigned(
        withManifest((m) => {
          const users = signed.find((e) => e.name === 'db/users.copy')!.body;
          m.files.push({ path: 'db/users.copy', size: users.length, sha256: sha256(users) });
        }),
      ),
    reason: /files\.1\.path: not uploads\/<area>\/<stored name>/,
  },
  {
    // Refused only once the rows are loaded: the database is emptied again, the cluster removed.
    name: "a table's copy stored as an upload no record points at",
    entries: () => {
      const users = signed.find((e) => e.name === 'db/users.copy')!.body;
      const name = `uploads/letters/${randomUUID()}`;
      return unsigned(
        withManifest(
          (m) => m.files.push({ path: name, size: users.length, sha256: sha256(users) }),
          [{ name, body: users }],
        ),
      );
    },
    reason: /lists an upload that no record points at: uploads\/letters\//,
  },
  {
    name: 'an edited table with recomputed checksums, under a key',
    key: KEY,
    entries: () => {
      const edited = Buffer.from(
        signed
          .find((e) => e.name === 'db/portal_settings.copy')!
          .body.toString('utf8')
          .replace('kept', 'evil'),
      );
      return withManifest((m) => {
        const t = m.tables.find((x) => x.table === 'portal_settings')!;
        Object.assign(t, { size: edited.length, sha256: sha256(edited) });
      }).map((e) => (e.name === 'db/portal_settings.copy' ? { ...e, body: edited } : e));
    },
    reason: /manifest does not match its signature: it was edited after the backup/,
  },
  {
    name: 'an unsigned archive, under a key',
    key: KEY,
    entries: () => unsigned(signed),
    reason: /not signed, and BACKUP_KEY is set/,
  },
  {
    name: 'a truncated gzip',
    entries: () => readFileSync(signedFile).subarray(0, 600),
    reason: /is not a readable Lab Portal backup \(unexpected end of file\)/,
  },
  {
    name: 'garbage after the gzip magic',
    entries: () => Buffer.concat([Buffer.from([0x1f, 0x8b]), randomBytes(4096)]),
    reason: /is not a readable Lab Portal backup/,
  },
];

describe('npm run restore of a crafted archive (issue 28 item 8)', () => {
  it('refuses each in one line, leaves the embedded target empty with nothing running, then restores a good archive there', async () => {
    const parent = tmp('lp-crafted-dst-');
    chmodSync(parent, 0o755); // the embedded database's own user (run as root: postgres) passes through it
    const target = path.join(parent, 'data');
    mkdirSync(target);
    const archives = tmp('lp-crafted-archives-');
    for (const [i, c] of crafted.entries()) {
      const file = path.join(archives, `${i}.tar.gz`);
      const entries = c.entries();
      if (Buffer.isBuffer(entries)) writeFileSync(file, entries);
      else await writeArchive(file, entries);
      const res = await npmScript('restore', [file], { DATA_DIR: target, BACKUP_KEY: c.key ?? '' });
      const lines = res.output.trim().split('\n');
      expect({ crafted: c.name, status: res.status, lines }).toMatchObject({
        status: 1,
        lines: [expect.stringMatching(/^Restore refused: /)],
      });
      expect(lines[0], c.name).toMatch(c.reason);
      expect(readdirSync(target), c.name).toEqual([]); // no pgdata, no .restore-*, no jwt-secret
      expect(readdirSync(parent), c.name).toEqual(['data']); // nothing written beside it
      expect(processesUsing(target), c.name).toEqual([]); // no postmaster left running
    }
    expect(existsSync(path.join(os.tmpdir(), 'escape.txt'))).toBe(false);

    const good = await npmScript('restore', [signedFile], { DATA_DIR: target, BACKUP_KEY: KEY });
    expect(good.output).toMatch(/^Restored .*signature verified\): \d+ rows, 1 files, 1 audit checkpoints/);
    expect(good.status).toBe(0);
    expect(readFileSync(path.join(target, 'uploads', upload.area, upload.id)).equals(upload.bytes)).toBe(true);
    expect(readdirSync(path.join(target, 'audit-checkpoints'))).toEqual([
      expect.stringMatching(/^0000000000000000025-\d{8}T\d{9}Z\.json$/),
    ]);
    expect(processesUsing(target)).toEqual([]);
  }, 480_000);

  it('restores a signed archive without BACKUP_KEY with a warning line, its audit trail verifying', async () => {
    const url = await newDatabase(false);
    const target = { DATA_DIR: tmp('lp-crafted-dst-'), DATABASE_URL: url };
    const res = await npmScript('restore', [signedFile], target);
    expect(res.output).toContain(
      'Warning: the archive is signed, but BACKUP_KEY is not set: its signature was not checked.',
    );
    expect(res.status).toBe(0);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const { rows } = await c.query(`select value from portal_settings where key = 'restore_marker'`);
    await c.end();
    expect(rows).toEqual([{ value: 'kept' }]);
    // The trail came back as it was (not chained again by its trigger), with its checkpoint: it verifies.
    const verified = await npmScript('audit-verify', [], target);
    expect(verified.status).toBe(0);
    expect(JSON.parse(verified.output.trim().split('\n').at(-1)!)).toMatchObject({
      ok: true,
      rows: 26, // the 25 events and the checkpoint's own
      head: { seq: 26 },
      checkpoints: { distinct: 1, checked: 1 },
    });
  }, 120_000);
});

describe('the manifest schema', () => {
  const good = () => manifestOf(signed) as unknown as Record<string, unknown> & ReturnType<typeof manifestOf>;
  const refusal = (edit: (m: ReturnType<typeof good>) => void) => {
    const m = good();
    edit(m);
    try {
      parseManifest(Buffer.from(JSON.stringify(m)));
    } catch (err) {
      expect(err).toBeInstanceOf(BackupError);
      return (err as Error).message;
    }
    throw new Error('accepted');
  };

  it('accepts what the backup wrote, and refuses unknown fields, wrong types and absurd sizes in one sentence', () => {
    expect(parseManifest(Buffer.from(JSON.stringify(good()))).tables.length).toBeGreaterThan(10);
    expect(refusal((m) => (m.extra = 1))).toMatch(/\(the manifest: Unrecognized key: "extra"\)/);
    expect(refusal((m) => ((m.tables[0] as Record<string, unknown>).owner = 'x'))).toMatch(/tables\.0/);
    expect(refusal((m) => ((m as Record<string, unknown>).migrations = '20'))).toMatch(/migrations: must be a number/);
    expect(refusal((m) => (m.tables[0]!.size = 1e300))).toMatch(/tables\.0\.size: is too large/);
    expect(refusal((m) => (m.tables[0]!.size = -1))).toMatch(/tables\.0\.size: must not be negative/);
    expect(refusal((m) => (m.migrations = 2.5))).toMatch(/migrations: must be a whole number/);
    expect(refusal((m) => (m.tables[1] = m.tables[0]!))).toMatch(/listed twice/);
    expect(refusal((m) => (m.tables[0]!.path = 'db/../../etc/passwd'))).toMatch(/tables\.0\.path: not db/);
    expect(refusal((m) => (m.checkpoints[0]!.path = 'audit-checkpoints/notes.json'))).toMatch(
      /checkpoints\.0\.path: not audit-checkpoints\/<checkpoint name>/,
    );
    // An archive of a portal before the audit trail has no checkpoints: still a manifest.
    const older = good() as Partial<ReturnType<typeof good>>;
    delete older.checkpoints;
    expect(parseManifest(Buffer.from(JSON.stringify(older))).checkpoints).toEqual([]);
    expect(() => parseManifest(Buffer.from('{"format":'))).toThrow(/not valid JSON/);
  });
});
