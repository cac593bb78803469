import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';

import { npmScript } from '#server/test/backup-archives.ts';
import { startTestS3 } from '#server/test/s3-server.ts';
import { killServer, login, type ServerProcess, startServer, waitHealthy } from '#server/test/server-process.ts';

/** npm run backup / npm run restore, end to end with the real server, in both database modes (decision 051). */
const ADMIN = { ADMIN_EMAIL: 'backup.admin@lab.test', ADMIN_PASSWORD: 'Backup-Admin-2026' };
const servers: ServerProcess[] = [];
const dirs: string[] = [];
const databases: string[] = [];
const { adminUrl } = inject('testDatabase');

afterAll(async () => {
  for (const s of servers) await killServer(s);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  for (const name of databases) await c.query(`drop database if exists ${name} with (force)`);
  await c.end();
});

const tmp = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

async function newDatabase(): Promise<string> {
  const name = `lp_backup_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  databases.push(name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function serve(env: Record<string, string>) {
  const s = startServer({ ...ADMIN, ...env });
  servers.push(s);
  const base = await waitHealthy(s, 60_000);
  const res = await login(base, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
  const { token } = (await res.json()) as { token: string };
  return { s, base, headers: { authorization: `Bearer ${token}` } };
}

async function uploadLetter(base: string, headers: Record<string, string>, subject: string, bytes: Buffer) {
  const form = new FormData();
  const fields = {
    letterLanguage: 'Hindi',
    letterCommunBy: 'Hand',
    docketDate: '2026-11-20',
    letterDate: '2026-11-18',
    letterNo: 'BK/7',
    category: 'Audit',
    establishment: 'Backup Establishment',
    docketNo: 'D-77',
    letterSub: subject,
  };
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([new Uint8Array(bytes)]), 'scan.pdf');
  const res = await fetch(`${base}/api/dac`, { method: 'POST', headers, body: form });
  expect(res.status).toBe(201);
  return (await res.json()) as { _id: string; letterId: string };
}

async function roundTrip(source: Record<string, string>, target: Record<string, string>) {
  const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(5000), Buffer.from('\n%%EOF\n')]);
  const subject = `संग्रह backup round trip ${randomUUID()}`;
  const a = await serve(source);
  const letter = await uploadLetter(a.base, a.headers, subject, bytes);
  // Two audit checkpoints while the portal runs (decision 068): the second names the first one's event. The sign-in
  // above is itself an event, so both checkpoints name a row of the trail and verify checks both.
  for (let i = 0; i < 2; i++) expect((await npmScript('audit-checkpoint', [], source)).status).toBe(0);

  // Taken while the portal runs.
  const archive = path.join(tmp('lp-archive-'), 'portal.tar.gz');
  const backup = await npmScript('backup', ['--out', archive], source);
  expect(backup.output).toMatch(/Backup written to .*: \d+ tables \(\d+ rows\), 1 files, 2 audit checkpoints/);
  expect(backup.status).toBe(0);
  // A letter after the backup is not in it.
  await uploadLetter(a.base, a.headers, `after the backup ${randomUUID()}`, bytes);
  a.s.child.kill('SIGTERM');
  await a.s.exited;

  const restore = await npmScript('restore', [archive], target);
  expect(restore.output).toContain('Restored');
  expect(restore.status).toBe(0);
  // Restoring again is refused: the target is no longer empty.
  const again = await npmScript('restore', [archive], target);
  expect(again.status).toBe(1);
  expect(again.output).toMatch(/Restore refused: .*(not empty|already holds)/);
  // The audit trail came back with its chain and its checkpoints (in the bucket too with STORAGE=s3): it verifies.
  const verified = await npmScript('audit-verify', [], target);
  expect(verified.output).toContain('OK: every row gives its hash');
  expect(verified.status).toBe(0);
  const s3 = target.STORAGE === 's3' ? 2 : 0;
  expect(JSON.parse(verified.output.trim().split('\n').at(-1)!)).toMatchObject({
    ok: true,
    checkpoints: { distinct: 2, local: 2, s3, checked: 2 },
  });

  const b = await serve(target);
  const list = (await (await fetch(`${b.base}/api/dac?limit=100`, { headers: b.headers })).json()) as {
    _id: string;
    letterId: string;
    letterSub: string;
    fileUrl: string;
  }[];
  expect(list).toHaveLength(1);
  expect(list[0]).toMatchObject({ _id: letter._id, letterId: letter.letterId, letterSub: subject });
  const file = await fetch(`${b.base}${list[0]!.fileUrl}`, { headers: b.headers });
  expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
  // The restored register continues its Letter ID sequence.
  const next = await uploadLetter(b.base, b.headers, 'after the restore', bytes);
  expect(next.letterId).not.toBe(letter.letterId);
  b.s.child.kill('SIGTERM');
  await b.s.exited;
}

describe('npm run backup and npm run restore', () => {
  it('round-trips the embedded database and the uploads, taken while the portal runs', async () => {
    await roundTrip({ DATA_DIR: tmp('lp-bk-src-') }, { DATA_DIR: tmp('lp-bk-dst-') });
  }, 240_000);

  it('round-trips a DATABASE_URL database and the uploads', async () => {
    await roundTrip(
      { DATA_DIR: tmp('lp-bk-src-'), DATABASE_URL: await newDatabase() },
      { DATA_DIR: tmp('lp-bk-dst-'), DATABASE_URL: await newDatabase() },
    );
  }, 240_000);

  it('round-trips with STORAGE=s3: files read from one bucket and written into another, empty one', async () => {
    const [from, to] = [await startTestS3('portal-source'), await startTestS3('portal-target')];
    try {
      await roundTrip(
        { DATA_DIR: tmp('lp-bk-src-'), DATABASE_URL: await newDatabase(), ...from.env },
        { DATA_DIR: tmp('lp-bk-dst-'), DATABASE_URL: await newDatabase(), ...to.env },
      );
    } finally {
      await from.close();
      await to.close();
    }
  }, 240_000);

  it('refuses a damaged archive and leaves the target empty', async () => {
    const bad = path.join(tmp('lp-archive-'), 'broken.tar.gz');
    // gzip's magic bytes, then garbage: refused while unpacking, after the empty cluster was made (and removed again)
    writeFileSync(bad, Buffer.concat([Buffer.from([0x1f, 0x8b]), randomBytes(4096)]));
    const target = tmp('lp-bk-dst-');
    const res = await npmScript('restore', [bad], { DATA_DIR: target });
    expect(res.status).toBe(1);
    expect(res.output).toMatch(/Restore refused: .* is not a readable Lab Portal backup/);
    const again = await npmScript('restore', [bad], { DATA_DIR: target }); // nothing was left behind to refuse on
    expect(again.output).not.toContain('already holds');
  }, 120_000);
});
