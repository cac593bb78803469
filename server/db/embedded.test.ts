import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { letterFields } from '#server/test/factories.ts';
import {
  killServer,
  login,
  postmasterPid,
  type ServerProcess,
  startServer,
  waitHealthy,
} from '#server/test/server-process.ts';

/**
 * The embedded database under an operator's mistakes and crashes (decision 013): a second portal on the same
 * DATA_DIR, kill -9 of the portal alone or of everything under a write load, and start-up faults.
 */
const ADMIN = { ADMIN_EMAIL: 'crash.admin@lab.test', ADMIN_PASSWORD: 'Crash-Admin-2026' };
const servers: ServerProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of servers) await killServer(s);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function start(env: Record<string, string> = {}) {
  const s = startServer({ ...ADMIN, ...env });
  servers.push(s);
  if (!env.DATA_DIR) dirs.push(s.dataDir);
  return s;
}

async function signIn(base: string): Promise<string> {
  const res = await login(base, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

interface Acked {
  id: string;
  bytes: Buffer;
}

/** One client: uploads letters with distinct PDF bytes until a request fails (the server was killed). */
async function uploader(base: string, token: string, tag: string, acked: Acked[]) {
  for (let n = 0; ; n++) {
    const bytes = Buffer.concat([
      Buffer.from(`%PDF-1.4\n% ${tag} ${n}\n`),
      randomBytes(2048 + n * 13),
      Buffer.from('\n%%EOF\n'),
    ]);
    const form = new FormData();
    for (const [k, v] of Object.entries(letterFields({ letterSub: `${tag} letter ${n}` }))) form.set(k, v);
    form.set('file', new Blob([bytes], { type: 'application/pdf' }), `${tag}-${n}.pdf`);
    try {
      const res = await fetch(`${base}/api/dac`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      if (res.status !== 201) return;
      acked.push({ id: ((await res.json()) as { _id: string })._id, bytes });
    } catch {
      return; // the connection died with the server: this letter was never acknowledged
    }
  }
}

describe('embedded PostgreSQL: one portal per DATA_DIR', () => {
  it('refuses a second portal on the same DATA_DIR with a clear message, and the first keeps serving', async () => {
    const first = start();
    const base = await waitHealthy(first);
    const second = start({ DATA_DIR: first.dataDir });
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toMatch(/Another portal process \(pid \d+\) is already running on DATA_DIR/);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    await signIn(base);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(postmasterPid(first.dataDir)).toBeUndefined(); // the database stopped with the portal
  }, 120_000);
});

describe('embedded PostgreSQL: kill -9 under a write load', () => {
  it('loses no acknowledged letter or byte and leaves no orphan file, over three crash rounds', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-crash-'));
    dirs.push(dataDir);
    const acked: Acked[] = [];
    const rounds = ['node', 'everything', 'node'] as const;
    const restartMs: number[] = [];
    for (const [round, how] of rounds.entries()) {
      const began = Date.now();
      const s = start({ DATA_DIR: dataDir });
      const base = await waitHealthy(s, 60_000);
      if (round > 0) restartMs.push(Date.now() - began);
      const token = await signIn(base);
      const before = acked.length;
      const clients = [0, 1, 2, 3].map((c) => uploader(base, token, `r${round}c${c}`, acked));
      // Kill once each client has had a few letters acknowledged, with uploads in flight.
      while (acked.length < before + 12) await new Promise((r) => setTimeout(r, 20));
      const postmaster = postmasterPid(dataDir);
      if (how === 'node') s.child.kill('SIGKILL');
      else {
        process.kill(-s.child.pid!, 'SIGKILL'); // the portal's process group
        if (postmaster) process.kill(postmaster, 'SIGKILL'); // and the database: a power cut
      }
      await Promise.all(clients);
      await s.exited;
    }

    const began = Date.now();
    const s = start({ DATA_DIR: dataDir });
    const base = await waitHealthy(s, 60_000);
    restartMs.push(Date.now() - began);
    for (const ms of restartMs) expect(ms).toBeLessThan(15_000);
    const token = await signIn(base);
    const letters: { _id: string; fileUrl: string; letterId: string }[] = [];
    for (let offset = 0; ; offset += 100) {
      const res = await fetch(`${base}/api/dac?limit=100&offset=${offset}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const page = (await res.json()) as typeof letters;
      letters.push(...page);
      if (page.length < 100) break;
    }
    const byId = new Map(letters.map((l) => [l._id, l]));
    expect(acked.length).toBeGreaterThanOrEqual(36);
    for (const a of acked) {
      const letter = byId.get(a.id);
      expect(letter, `acknowledged letter ${a.id}`).toBeTruthy();
      const file = await fetch(`${base}${letter!.fileUrl}`, { headers: { authorization: `Bearer ${token}` } });
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(a.bytes)).toBe(true);
    }
    // After the start sweep every stored letter file belongs to a letter (unacknowledged ones may exist, whole).
    const referenced = new Set(letters.map((l) => path.basename(l.fileUrl)));
    const onDisk = readdirSync(path.join(dataDir, 'uploads', 'letters'));
    expect(onDisk.filter((f) => !referenced.has(f))).toEqual([]);
    // Letter IDs stayed unique.
    const letterIds = letters.map((l) => l.letterId);
    expect(new Set(letterIds).size).toBe(letterIds.length);
    console.log(
      `crash rounds: ${acked.length} acknowledged letters kept with their bytes; restart to healthy ${restartMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`,
    );
    s.child.kill('SIGTERM');
    expect(await s.exited, s.output().slice(-4000)).toBe(0);
  }, 300_000);
});

describe('embedded PostgreSQL: start-up faults name the problem and change nothing', () => {
  const expectRefusal = async (env: Record<string, string>, message: RegExp) => {
    const s = start(env);
    expect(await s.exited).toBe(1);
    expect(s.output()).toMatch(message);
    return s;
  };

  it('a pgdata that is not a PostgreSQL cluster', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-fault-'));
    dirs.push(dataDir);
    mkdirSync(path.join(dataDir, 'pgdata'));
    writeFileSync(path.join(dataDir, 'pgdata', 'notes.txt'), 'not a database');
    await expectRefusal({ DATA_DIR: dataDir }, /is not a PostgreSQL cluster \(no PG_VERSION\).*Nothing was changed/s);
    expect(readdirSync(path.join(dataDir, 'pgdata'))).toEqual(['notes.txt']);
  }, 60_000);

  it('a cluster of another PostgreSQL major version', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-fault-'));
    dirs.push(dataDir);
    mkdirSync(path.join(dataDir, 'pgdata'));
    writeFileSync(path.join(dataDir, 'pgdata', 'PG_VERSION'), '16\n');
    await expectRefusal({ DATA_DIR: dataDir }, /holds a PostgreSQL 16 cluster; this portal runs PostgreSQL 18/);
  }, 60_000);

  it('a DATA_DIR that cannot be created', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lp-fault-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'a-file'), '');
    await expectRefusal({ DATA_DIR: path.join(dir, 'a-file', 'data') }, /DATA_DIR .* cannot be created or written/);
  }, 60_000);

  it('a port in use', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const { port } = blocker.address() as { port: number };
    try {
      const s = await expectRefusal({ PORT: String(port) }, new RegExp(`port ${port} on 127.0.0.1 is already in use`));
      expect(postmasterPid(s.dataDir)).toBeUndefined(); // the database it started is stopped again
    } finally {
      blocker.close();
    }
  }, 60_000);
});
