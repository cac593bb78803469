import { randomUUID } from 'node:crypto';

import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';

import { pdfWithPages } from '#server/test/documents.ts';
import { letterFields } from '#server/test/factories.ts';
import { multipart } from '#server/test/multipart.ts';
import { killServer, login, type ServerProcess, startServer, waitHealthy } from '#server/test/server-process.ts';

/**
 * A served classified read always has its audit row, even when the server is killed with SIGKILL in the middle of
 * them ("Cost", decision 070): the row is committed before the first byte of the answer leaves. A real
 * server process (npm start's bundle) on its own database serves many Secret letters' watermarked files and cards at
 * once; it is killed once some have been answered; every download whose whole body the client received is then
 * looked up by its X-Download-Id, and every card read counted, in the database.
 */

const { adminUrl, template } = inject('testDatabase');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
});

async function newDatabase(): Promise<string> {
  const name = `lp_kill_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
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

const ADMIN = { ADMIN_EMAIL: 'kill.admin@lab.test', ADMIN_PASSWORD: 'Kill-Admin-2026' };
const LETTERS = 4;
const READS = 96;
const AT_ONCE = 12;
/** The server is killed once this many reads have been answered in full. */
const KILL_AFTER = 30;

type Outcome = { kind: 'file' | 'card'; letter: string; served: boolean; downloadId?: string };

describe('kill -9 during classified reads', () => {
  it('leaves an audit row for every read that was served', async () => {
    const databaseUrl = await newDatabase();
    const server: ServerProcess = startServer({ ...ADMIN, DATABASE_URL: databaseUrl, JWT_SECRET: randomUUID() });
    cleanups.push(() => killServer(server));
    const base = await waitHealthy(server);
    const { token } = (await (await login(base, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD)).json()) as {
      token: string;
    };
    const auth = { authorization: `Bearer ${token}` };

    // Secret letters with a ten-page PDF each: watermarking takes a while, so the kill finds reads in every state.
    const letters: { _id: string; fileUrl: string }[] = [];
    for (let i = 0; i < LETTERS; i++) {
      const body = multipart(letterFields({ classification: 'Secret', letterSub: `Magazine survey ${i}` }), {
        field: 'file',
        filename: `survey-${i}.pdf`,
        content: pdfWithPages(Array.from({ length: 10 }, (_, p) => `Survey ${i} page ${p + 1}`)),
      });
      const res = await fetch(`${base}/api/dac`, {
        method: 'POST',
        body: new Uint8Array(body.payload),
        headers: { ...body.headers, ...auth },
      });
      expect(res.status, await res.clone().text()).toBe(201);
      letters.push((await res.json()) as { _id: string; fileUrl: string });
    }

    // Many reads at once, AT_ONCE at a time; a read is served when its whole answer arrived.
    const outcomes: Outcome[] = [];
    let served = 0;
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      process.kill(-server.child.pid!, 'SIGKILL');
    };
    const read = async (n: number): Promise<void> => {
      const letter = letters[n % LETTERS]!;
      const kind = n % 3 === 0 ? 'card' : 'file';
      const outcome: Outcome = { kind, letter: letter._id, served: false };
      outcomes.push(outcome);
      try {
        const res = await fetch(`${base}${kind === 'card' ? `/api/dac/${letter._id}` : letter.fileUrl}`, {
          headers: auth,
        });
        const body = Buffer.from(await res.arrayBuffer());
        const length = Number(res.headers.get('content-length') ?? body.length);
        if (res.status === 200 && body.length === length) {
          outcome.served = true;
          outcome.downloadId = res.headers.get('x-download-id') ?? undefined;
          if (++served >= KILL_AFTER) kill();
        }
      } catch {
        // The connection died with the server: not served.
      }
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (next < READS && !killed) await read(next++);
      }),
    );
    kill();
    await server.exited;

    const servedFiles = outcomes.filter((o) => o.served && o.kind === 'file');
    const servedCards = outcomes.filter((o) => o.served && o.kind === 'card');
    expect(servedFiles.length).toBeGreaterThan(0);
    expect(servedCards.length).toBeGreaterThan(0);
    // Killed in the middle: reads were still on their way, and more were never sent.
    expect(outcomes.length).toBeLessThan(READS);
    expect(outcomes.some((o) => !o.served)).toBe(true);

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      // Each served download has the row its X-Download-Id names.
      for (const o of servedFiles) {
        expect(o.downloadId, 'a stamped download names its audit event').toBeTruthy();
        const { rows } = await db.query(
          `select action, outcome, object_id, classification from audit_events where id = $1`,
          [o.downloadId],
        );
        expect(rows, `download ${o.downloadId}`).toEqual([
          { action: 'letter_downloaded', outcome: 'success', object_id: o.letter, classification: 'Secret' },
        ]);
      }
      // Each served card read has a row (they carry no id): at least as many rows per letter as cards served.
      for (const letter of letters) {
        const { rows } = await db.query(
          `select count(*)::int as n from audit_events where action = 'letter_viewed' and object_id = $1`,
          [letter._id],
        );
        expect(rows[0].n).toBeGreaterThanOrEqual(servedCards.filter((o) => o.letter === letter._id).length);
      }
    } finally {
      await db.end();
    }
  }, 240_000);
});
