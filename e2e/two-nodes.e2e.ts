import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openDatabase } from '#server/db/client.ts';
import { seedMinimal } from '#server/demo/seed-minimal.ts';
import { freePort, type LoadBalancer, startLoadBalancer, waitUntilHealthy } from '#server/test/load-balancer.ts';
import { SAMPLE_FILES } from '#server/test/multipart.ts';

import { buildServerIfNeeded } from '../scripts/server-build.mjs';
import { projectRoot } from '../scripts/web-build.mjs';
import { expectVisible, launchBrowser, LOGIN_LABELS } from './fixtures.ts';
import { registrationFor } from './seed.ts';

/**
 * Two portal processes (server/main.ts) on one PostgreSQL server and one shared DATA_DIR, behind a load balancer that
 * alternates requests (Debian's nginx with a generated config; a small Node round-robin proxy where nginx is missing)
 * — decisions 052 and 017. The machine's PostgreSQL at 127.0.0.1:5432 (CI starts it) gets a fresh database for the run.
 */
const PG_ADMIN_URL = process.env.TWO_NODES_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = { email: 'two-nodes-admin@lab.test', password: 'Two-Nodes-Admin-2026' };
const JWT_SECRET = 'two-nodes-e2e-secret-two-nodes-e2e-secret';

async function postgresReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}
const reachable = await postgresReachable();
// In CI (CI=true, as .ci/run is run) a missing PostgreSQL is a failure, never a silent skip (decision 097): .ci/run
// starts the machine's server, so its absence means the run proved less than it says.
if (!reachable && process.env.CI === 'true')
  throw new Error(`[two-nodes] no PostgreSQL answers at ${PG_ADMIN_URL}: CI must start it (.ci/run, step PostgreSQL).`);
if (!reachable)
  console.warn(`[two-nodes] SKIPPED: no PostgreSQL answers at ${PG_ADMIN_URL}; start it to run this test.`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Node {
  name: string;
  port: number;
  child: ChildProcess;
}

describe.skipIf(!reachable)('two portal nodes behind a load balancer', () => {
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'lp-two-nodes-'));
  const dataDir = path.join(runDir, 'data'); // one DATA_DIR for both nodes: a shared file system
  const dbName = `lp_two_nodes_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const databaseUrl = (() => {
    const u = new URL(PG_ADMIN_URL);
    u.pathname = `/${dbName}`;
    return u.toString();
  })();
  const nodes: Node[] = [];
  let balancer: LoadBalancer;
  let labId = '';
  let groupId = '';
  let browser: Browser;

  const startNode = async (name: string): Promise<Node> => {
    const port = await freePort();
    const log = createWriteStream(path.join(projectRoot, 'test-results', `two-nodes-${name}.log`), { flags: 'a' });
    const child = spawn(process.execPath, ['--enable-source-maps', buildServerIfNeeded()], {
      cwd: projectRoot,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        JWT_SECRET,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOGIN_ADDRESS_FAILURES: '10000',
        REGISTRATIONS_PER_ADDRESS: '10000',
        LOG_LEVEL: 'warn',
        SERVE_WEB: 'true',
        WEB_ROOT: path.join(projectRoot, 'dist', 'web'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
    // Healthy (its database answers) before the balancer sends it anything, or the set-up fails here, naming the node
    // and its log, instead of the first request getting the balancer's 502 page.
    const logFile = path.join(projectRoot, 'test-results', `two-nodes-${name}.log`);
    await waitUntilHealthy(`http://127.0.0.1:${port}`, {
      what: `node ${name}`,
      child,
      withinMs: 120_000,
      detail: () => `see ${logFile}`,
    });
    const node = { name, port, child };
    nodes.push(node);
    return node;
  };

  beforeAll(async () => {
    mkdirSync(path.join(projectRoot, 'test-results'), { recursive: true });
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const database = await openDatabase({ databaseUrl });
    const seed = await seedMinimal(database.db);
    await database.close();
    labId = seed.labId;
    groupId = seed.groupIds[0]!;
    // Started together, as an orchestrator starts replicas: one records the JWT secret and creates the administrator.
    await Promise.all([startNode('a'), startNode('b')]);
    const ports = nodes.map((n) => n.port);
    balancer = await startLoadBalancer(ports, path.join(runDir, 'balancer'));
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await balancer?.stop();
    for (const n of nodes) if (n.child.exitCode === null) n.child.kill('SIGKILL');
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    rmSync(runDir, { recursive: true, force: true });
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- loose JSON of many routes in one journey
  async function api<T = any>(method: string, url: string, token?: string, body?: unknown, base = balancer.url) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${base}${url}`, { method, headers, body: payload, signal: AbortSignal.timeout(60_000) });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }
  const signIn = async (email: string, password: string) => {
    const res = await api('POST', '/api/auth/login', undefined, { email, password });
    expect(res.status).toBe(200);
    return res.body.token as string;
  };
  const letterForm = (subject: string, bytes: Buffer) => {
    const form = new FormData();
    const fields = {
      letterLanguage: 'English',
      letterCommunBy: 'Post',
      docketDate: '2026-11-20',
      letterDate: '2026-11-18',
      letterNo: `HQ/${randomUUID().slice(0, 8)}`,
      category: 'General',
      establishment: 'Headquarters',
      letterSub: subject,
      docketNo: 'D-17',
    };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'letter.pdf');
    return form;
  };

  it('register → approve → sign in → upload a letter → find it → download it → admin edits the lab → every node shows it', async () => {
    // Register (through the balancer: whichever node) and approve as the admin (the other node, most likely).
    const person = registrationFor({ role: 'director' });
    const registered = await api('POST', '/api/auth/register', undefined, person);
    expect(registered.status).toBe(201);
    const adminToken = await signIn(ADMIN.email, ADMIN.password);
    const approved = await api('POST', `/admin/approve-user/${registered.body.user._id}`, adminToken, {
      labId,
      groupId,
      role: 'director',
    });
    expect(approved.status).toBe(200);

    // Sign in through the browser, via the balancer.
    const context = await browser.newContext({
      baseURL: balancer.url,
      viewport: { width: 1280, height: 800 },
      locale: 'en-IN',
      timezoneId: 'Asia/Kolkata',
    });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel(LOGIN_LABELS.email, { exact: false }).first().fill(person.email);
    await page.getByLabel(LOGIN_LABELS.password, { exact: false }).first().fill(person.password);
    await page.getByRole('button', { name: LOGIN_LABELS.submit, exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();

    // Upload a letter (API, with the browser's token), then find it through the browser.
    const tag = randomUUID().slice(0, 6);
    const subject = `Two node dispatch ${tag}`;
    const bytes = Buffer.concat([SAMPLE_FILES.pdf, randomBytes(200_000)]);
    const created = await api('POST', '/api/dac', token!, letterForm(subject, bytes));
    expect(created.status).toBe(201);
    await page.goto('/allLetter');
    await expectVisible(page.getByRole('heading', { name: 'Letters & Correspondence', level: 1 }));
    await page.getByLabel('Search letters').fill(`dispatch ${tag}`);
    await expectVisible(page.getByRole('article', { name: subject }));
    await expectVisible(page.getByText('Showing 1 letter.'));

    // Download it on each node in turn: the same bytes.
    for (const node of nodes) {
      const res = await fetch(`http://127.0.0.1:${node.port}${created.body.fileUrl}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    }

    // Every node caches the lab page; the admin edits the lab through the balancer; every node shows the change.
    for (const node of nodes)
      await api('GET', `/api/labs/${labId}`, undefined, undefined, `http://127.0.0.1:${node.port}`);
    const lab = (await api('GET', `/api/labs/${labId}`)).body;
    const newVision = `Safety for every node ${tag}`;
    const edited = await api('PUT', `/api/labs/${labId}`, adminToken, {
      name: lab.name,
      domain: lab.domain || 'Fire safety',
      vision: newVision,
      mission: lab.mission || 'Mission',
      about: lab.about || 'About',
      LabHistoryDetails: lab.LabHistoryDetails || 'History',
    });
    expect(edited.status).toBe(200);
    const started = Date.now();
    for (const node of nodes) {
      while (
        (await api('GET', `/api/labs/${labId}`, undefined, undefined, `http://127.0.0.1:${node.port}`)).body.vision !==
        newVision
      ) {
        // the NOTIFY, not the 10 s expiry: well under it, with room for a loaded machine (decision 128)
        expect(Date.now() - started).toBeLessThan(5000);
        await sleep(25);
      }
    }
    await context.close();
  });

  it('killing one node mid-run loses no acknowledged write, and the other keeps serving', async () => {
    const adminToken = await signIn(ADMIN.email, ADMIN.password);
    const acknowledged: { id: string; fileUrl: string; bytes: Buffer }[] = [];
    let failed = 0;
    let afterKill = 0;
    let killed = false;
    const refusals: string[] = []; // why a write was not acknowledged, for the failure message
    // Two writers, 20 letters each, through the balancer; one node is killed once a few are in (the eighth
    // acknowledgement, or the writers' end, is the signal).
    let eightIn: () => void = () => {};
    const eightAcknowledged = new Promise<void>((resolve) => (eightIn = resolve));
    const writer = async (w: number) => {
      for (let i = 0; i < 20; i++) {
        const bytes = Buffer.concat([SAMPLE_FILES.pdf, randomBytes(50_000)]);
        try {
          const res = await api('POST', '/api/dac', adminToken, letterForm(`Kill test ${w}-${i}`, bytes));
          if (res.status === 201) {
            acknowledged.push({ id: res.body._id, fileUrl: res.body.fileUrl, bytes });
            if (acknowledged.length >= 8) eightIn();
            if (killed) afterKill++;
          } else {
            failed++;
            refusals.push(`${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          }
        } catch (err) {
          failed++; // cut off mid-request: not acknowledged, so nothing is promised
          refusals.push(String(err));
        }
      }
    };
    const writers = Promise.all([writer(1), writer(2)]);
    await Promise.race([eightAcknowledged, writers]);
    expect(acknowledged.length, `writes before the kill: ${refusals.join('; ')}`).toBeGreaterThanOrEqual(8);
    nodes[0]!.child.kill('SIGKILL');
    killed = true;
    await writers;
    expect(afterKill, refusals.join('; ')).toBeGreaterThan(10); // the run went on after the kill
    expect(acknowledged.length + failed).toBe(40);
    expect(failed, refusals.join('; ')).toBeLessThanOrEqual(2); // at most the requests in flight on the killed node
    const survivor = `http://127.0.0.1:${nodes[1]!.port}`;
    for (const letter of acknowledged) {
      const got = await api('GET', `/api/dac/${letter.id}`, adminToken, undefined, survivor);
      expect(got.status).toBe(200);
      const file = await fetch(`${survivor}${letter.fileUrl}`, { headers: { authorization: `Bearer ${adminToken}` } });
      expect(Buffer.from(await file.arrayBuffer()).equals(letter.bytes)).toBe(true);
    }
    // The balancer keeps serving through the survivor.
    for (let i = 0; i < 6; i++) {
      expect((await api('GET', `/api/labs/${labId}`)).status).toBe(200);
    }
    expect(await signIn(ADMIN.email, ADMIN.password)).toBeTruthy();
    console.log(
      `[two-nodes] ${balancer.kind}: ${acknowledged.length} acknowledged (${afterKill} after the kill), ${failed} cut off by it`,
    );
  });
});
