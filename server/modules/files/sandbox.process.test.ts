import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';

import { docxWithText } from '#server/test/documents.ts';
import { letterFields } from '#server/test/factories.ts';
import { multipart } from '#server/test/multipart.ts';
import { pdfWithTaggedPages } from '#server/test/pdf-many-objects.ts';
import { killServer, login, type ServerProcess, startServer, waitHealthy } from '#server/test/server-process.ts';

import { MAX_PREVIEW_ATTEMPTS } from './previews.ts';

/**
 * Previews made by the background job of a real server process (npm start's bundle), every parser in the sandbox
 * (decision 091): a long PDF's viewer update never holds up the server's answers, and a file whose preview the server
 * never finished (killed during it) is not tried again and again at each restart.
 */

const { adminUrl, template } = inject('testDatabase');
const work = mkdtempSync(path.join(os.tmpdir(), 'lp-sandbox-process-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
  rmSync(work, { recursive: true, force: true });
});

async function newDatabase(): Promise<string> {
  const name = `lp_sandbox_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`create database ${name} template ${template}`);
  await c.end();
  cleanups.push(async () => {
    const d = new pg.Client({ connectionString: adminUrl });
    await d.connect();
    await d.query(`drop database if exists ${name} with (force)`);
    await d.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const ADMIN = { ADMIN_EMAIL: 'sandbox.admin@lab.test', ADMIN_PASSWORD: 'Sandbox-Admin-2026' };

async function signIn(base: string) {
  const { token, user } = (await (await login(base, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD)).json()) as {
    token: string;
    user: { _id: string };
  };
  return { auth: { authorization: `Bearer ${token}` }, adminId: user._id };
}

async function post(base: string, url: string, auth: Record<string, string>, body: ReturnType<typeof multipart>) {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    body: new Uint8Array(body.payload),
    headers: { ...body.headers, ...auth },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json() as Promise<Record<string, unknown>>;
}

/** The file_previews row of the stored file at this download address. */
async function previewRow(db: pg.Client, fileUrl: string) {
  const storedName = fileUrl.split('/').pop();
  const { rows } = await db.query<{ status: string; reason: string | null; attempts: number; pdf_id: string | null }>(
    `select p.status, p.reason, p.attempts, p.pdf_id from file_previews p join files f on f.id = p.file_id
      where f.stored_name = $1`,
    [storedName],
  );
  return rows[0];
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a 3,000-page PDF uploaded as a letter', () => {
  it('gets its preview while every /api/health answer, asked every 0.5 s, comes in under 1 s', async () => {
    const databaseUrl = await newDatabase();
    const server: ServerProcess = startServer({ ...ADMIN, DATABASE_URL: databaseUrl, JWT_SECRET: randomUUID() });
    cleanups.push(() => killServer(server));
    const base = await waitHealthy(server);
    const { auth } = await signIn(base);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    cleanups.push(() => db.end());

    // One page object per page under a single /Pages node (the viewer's update rebuilds its whole tree), tagged: the
    // structure's parent tree is one array of 9 million references, about 1 MB compressed. pdf-lib parses that array
    // in one go when it loads the PDF, for seconds: on the server's main thread, before decision 091, no answer came
    // meanwhile (3.4 s of CPU on the 2026-12-07 machine, where the untagged 3,000 pages stalled it 0.8 s at most).
    const pdf = pdfWithTaggedPages(
      Array.from({ length: 3000 }, (_, p) => `Range register page ${p + 1}`),
      3000,
    );
    expect(pdf.length).toBeGreaterThan(900_000);

    const latencies: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const started = Date.now();
        const res = await fetch(`${base}/api/health`);
        latencies.push(Date.now() - started);
        expect(res.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 500 - (Date.now() - started))));
      }
    })();
    const letter = await post(
      base,
      '/api/dac',
      auth,
      multipart(letterFields({ letterSub: 'Range register' }), {
        field: 'file',
        filename: 'register.pdf',
        content: pdf,
      }),
    );
    const row = await until(
      'the preview',
      async () => {
        const r = await previewRow(db, letter.fileUrl as string);
        return r && r.status !== 'pending' && r;
      },
      240_000,
    );
    polling = false;
    await poller;
    expect(row, JSON.stringify(row)).toMatchObject({ status: 'ready', reason: null });
    expect(row.pdf_id).toBeTruthy(); // the viewer's update was made, in the sandbox
    expect(latencies.length).toBeGreaterThan(1);
    expect(Math.max(...latencies), `answers in ms: ${latencies.join(' ')}`).toBeLessThan(1000);
  }, 360_000);
});

describe('a preview the server never finished', () => {
  it(`is started at most ${MAX_PREVIEW_ATTEMPTS} times, then given up, whatever the restarts`, async () => {
    // A LibreOffice that never ends: it leaves a mark in the folder it was told to write to, then sleeps.
    const soffice = path.join(work, 'soffice-never-ends');
    writeFileSync(
      soffice,
      '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --outdir ] && touch "$2/started"; shift; done\nexec sleep 600\n',
    );
    chmodSync(soffice, 0o755);
    const tmp = mkdtempSync(path.join(work, 'tmp-'));
    const starts = () =>
      readdirSync(tmp).filter((d) => d.startsWith('lp-preview-') && existsSync(path.join(tmp, d, 'office', 'started')))
        .length;
    const databaseUrl = await newDatabase();
    const env = {
      ...ADMIN,
      DATABASE_URL: databaseUrl,
      JWT_SECRET: randomUUID(),
      SOFFICE_PATH: soffice,
      TMPDIR: tmp,
    };
    const db = new pg.Client({ connectionString: databaseUrl });

    let server = startServer(env);
    cleanups.push(() => killServer(server));
    let base = await waitHealthy(server);
    await db.connect();
    cleanups.push(() => db.end());
    const { auth, adminId } = await signIn(base);
    const group = await fetch(`${base}/admin/close-group`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        groupName: 'Hanging files',
        groupPurpose: 'Sandbox',
        groupDuration: { from: '2020-01-01', to: '2099-12-31' },
        requestedBy: [adminId],
        adminRemarks: '',
      }),
    });
    expect(group.status, await group.clone().text()).toBe(201);
    const uploaded = await post(
      base,
      `/api/close-groups/${((await group.json()) as { _id: string })._id}/upload`,
      auth,
      multipart({}, { field: 'document', filename: 'hangs.docx', content: docxWithText('Never converted') }),
    );
    const fileUrl = (uploaded.document as { url: string }).url;

    // Killed during its conversion, twice: each start is counted.
    for (let start = 1; start <= MAX_PREVIEW_ATTEMPTS; start++) {
      await until(`conversion ${start}`, async () => starts() === start, 120_000);
      expect((await previewRow(db, fileUrl))?.attempts).toBe(start);
      await killServer(server);
      server = startServer({ ...env, DATA_DIR: server.dataDir }); // the same uploads
      base = await waitHealthy(server);
    }
    // The next start gives it up at once: "not available", with the reason, and LibreOffice is not run again.
    const row = await until(
      'the preview given up',
      async () => {
        const r = await previewRow(db, fileUrl);
        return r?.status === 'unavailable' && r;
      },
      120_000,
    );
    expect(row.reason).toBe(`its making was started ${MAX_PREVIEW_ATTEMPTS} times and never ended`);
    expect(starts()).toBe(MAX_PREVIEW_ATTEMPTS);
    const { auth: again } = await signIn(base);
    const state = await fetch(`${base}/api/previews/close-groups/${fileUrl.split('/').pop()}`, { headers: again });
    expect(((await state.json()) as { status: string }).status).toBe('unavailable');
    // The download is still there.
    expect((await fetch(`${base}${fileUrl}`, { headers: again })).status).toBe(200);
  }, 600_000);
});
