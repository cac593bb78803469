// `npm run bench:load -- --connections 100 --seconds 60`: a lab's morning at 09:30 (issue 12).
//
// Seeds the demo lab (`npm run demo`) into a fresh DATA_DIR, or into a fresh database created on the PostgreSQL server
// of DATABASE_URL (dropped at the end), starts the real server as a child process (RUNTIME_METRICS=true, so it answers
// GET /api/health/runtime with its event-loop delay), signs every demo account in, then drives a mix like real use
// with autocannon for --seconds over --connections keep-alive connections:
//   - every other connection is a visitor on the home page: index.html, a hashed script, the lab, the lab record, the
//     current documents (News Flash and the latest box), all documents, the photo list and a photo;
//   - the others are signed-in staff: who am I, their group page, My Group, their profile, the staff directory with a
//     search, /allLetter with a search (GET /api/dac/page?q=), the lab record, and about 4 % writes (a letter upload
//     with a small PDF, a profile save).
// Every request says `Accept-Encoding: gzip, deflate, br` as browsers do, and none sends If-None-Match (a first visit:
// the worst case). Prints requests/s, latency percentiles, errors (failed requests and 4xx/5xx answers) and time-outs,
// the server's event-loop delay, the CPU each request cost the server, the database and this load generator, the idle
// RSS of the server before the load (once its start-up work is done) and the peak RSS of the server (Node process)
// and of the database (sum of Pss of the embedded PostgreSQL's processes, or of the external backends serving the
// bench database), measured from /proc.
// The last line is one JSON object.
//
// --nodes N (with DATABASE_URL): N portal processes on that PostgreSQL, sharing one DATA_DIR, behind Debian's nginx
// (or the in-process proxy of server/test/load-balancer.ts where nginx is missing); the load goes to the balancer and
// the memory figures add up the nodes (issue 15).
// Options: --connections N (default 100), --seconds S (default 60), --url URL (a running demo portal: no seeding, no
// memory figures unless it answers /api/health/runtime), --timeout S (a request slower than this is a time-out,
// default 10), --log-level L (the server's LOG_LEVEL; default: the server's own default), --cpu-prof DIR (the server
// writes a V8 CPU profile there when it stops), --per-route S (after the mix, each kind of request alone for S seconds
// over up to 20 connections, with its requests/s, latency and the CPU it costs the server and the database per request:
// where the time goes, route by route), --generator wrk (the mix driven by Debian's wrk instead of autocannon, which
// itself costs about half a millisecond of CPU a request on the shared cores: scripts/bench-wrk.ts; no latency by kind
// of request then).
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { EventEmitter } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDatabase } from '#server/db/client.ts';
import { DEMO_STAFF } from '#server/demo/demo-data.ts';
import { DEMO_PASSWORD, demoEmail, seedDemo } from '#server/demo/demo-seed.ts';
import { makePdf } from '#server/demo/demo-files.ts';
import { createStorage } from '#server/modules/files/storage.ts';
import { startLoadBalancer, type LoadBalancer } from '#server/test/load-balancer.ts';
import { buildWebIfNeeded, builtDir } from './web-build.mjs';
import { cpuClock, mb, rssOf, sampleMemory, startServer, waitUntilQuiet, type RunningServer } from './bench-server.ts';
import { driveWithWrk, type PreparedRequest } from './bench-wrk.ts';

const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const connections = Number(option('connections') ?? 100);
const seconds = Number(option('seconds') ?? 60);
const timeoutS = Number(option('timeout') ?? 10);
const givenUrl = option('url');
const logLevel = option('log-level');
const profileDir = option('cpu-prof');
const nodeCount = Number(option('nodes') ?? 1);
const perRouteSeconds = Number(option('per-route') ?? 0);
const generator = option('generator') ?? 'autocannon';
if (generator !== 'autocannon' && generator !== 'wrk') throw new Error('--generator is autocannon or wrk.');

interface Session {
  token: string;
  userId: string;
  groupId: string | null;
  name: string;
}

/** A fresh database on the server of DATABASE_URL, dropped by the returned function. */
async function freshExternalDatabase(url: string) {
  const name = `lp_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Signs in every approved demo account (the staff list of server/demo/demo-data.ts). */
async function signIn(baseURL: string): Promise<Session[]> {
  const sessions: Session[] = [];
  for (const person of DEMO_STAFF) {
    const res = await fetch(`${baseURL}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: demoEmail(person.name), password: DEMO_PASSWORD }),
    });
    if (!res.ok) continue; // e.g. a deactivated demo account
    const body = await json<{ token: string; user: { _id: string; group: { _id: string } | null } }>(res);
    sessions.push({
      token: body.token,
      userId: body.user._id,
      groupId: body.user.group?._id ?? null,
      name: person.name,
    });
  }
  if (!sessions.length) throw new Error('No demo account could sign in: is this the demo lab?');
  return sessions;
}

/** A multipart body (the letter form with a small PDF), as bytes with its content type. */
async function letterUpload(i: number) {
  const form = new FormData();
  const fields: Record<string, string> = {
    letterLanguage: 'English',
    letterCommunBy: 'Post',
    docketDate: '2026-06-01',
    letterDate: '2026-05-28',
    letterNo: `BENCH/${i}`,
    category: 'Administration',
    establishment: 'HQ',
    letterSub: `Morning load letter ${i}`,
    docketNo: `D-${i}`,
  };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append(
    'file',
    new Blob(
      [new Uint8Array(makePdf({ heading: 'Bench Lab', title: `Letter ${i}`, body: 'Uploaded by bench:load.' }))],
      {
        type: 'application/pdf',
      },
    ),
    `letter-${i}.pdf`,
  );
  const res = new Response(form);
  return { contentType: res.headers.get('content-type')!, body: Buffer.from(await res.arrayBuffer()) };
}

const SEARCHES = ['kumar', 'sharma', 'fire', 'scientist', 'a', 'rao', 'singh', 'dr'];
const LETTER_SEARCHES = ['fire', 'safety', 'audit', 'HQ', 'letter', 'test', 'procurement', 'training'];

interface Shape {
  /** What it stands for in the per-route figures, e.g. "GET /api/groups/my-group". */
  name: string;
  weight: number;
  make: (
    s: Session | null,
    n: number,
  ) => { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string };
}

/** What one run of the mix measured, whichever generator drove it. */
interface MixRun {
  requests: number;
  durationS: number;
  latencyMs: { p50: number | null; p95: number | null; p99: number | null; max: number | null; mean: number };
  statuses: Record<string, number>;
  failedRequests: number;
  /** Answers other than 2xx and 3xx; wrk does not tell 4xx from 5xx (null then). */
  statusErrors: number;
  status4xx: number | null;
  status5xx: number | null;
  timeouts: number;
  counts: Record<string, number>;
  latencyByRouteMs: Record<string, { p50: number | null; p99: number | null }>;
  generatorCpuMs: number;
}

/** The latency at fraction `p` of a sorted list, in ms with one decimal. */
const percentile = (sorted: number[], p: number) =>
  sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!.toFixed(1) : null;
const perRequest = (ms: number, requests: number) => (requests ? +(ms / requests).toFixed(3) : null);
/** CPU used since the clocks were made, summed over the nodes; null without a server of our own. */
const sumCpu = (clocks: ReturnType<typeof cpuClock>[]) =>
  clocks.length
    ? clocks.map((c) => c.read()).reduce((a, b) => ({ server: a.server + b.server, database: a.database + b.database }))
    : null;

/**
 * Drives `connections` keep-alive connections for `seconds` with autocannon: connection number n is the person
 * `personFor(n)` (a signed-in session, or null for a visitor) and each of its requests is `choose(person)`.
 */
async function drive(opts: {
  url: string;
  connections: number;
  seconds: number;
  personFor: (connectionNo: number) => Session | null;
  choose: (person: Session | null) => Shape;
}) {
  let connectionNo = 0;
  let counter = 0;
  const counts: Record<string, number> = {};
  const latencies: number[] = [];
  /** Latencies by kind of request: where the slow tail of the mix comes from. */
  const latenciesByShape: Record<string, number[]> = {};
  const statuses: Record<string, number> = {};
  const generatorStart = process.cpuUsage();
  const run = autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.seconds,
    timeout: timeoutS,
    initialContext: {},
    requests: [
      {
        setupRequest: (req, ctx) => {
          const context = ctx as Record<string, unknown>;
          if (context.session === undefined) context.session = opts.personFor(connectionNo++);
          const session = context.session as Session | null;
          const shape = opts.choose(session);
          const made = shape.make(session, counter++);
          counts[shape.name] = (counts[shape.name] ?? 0) + 1;
          context.shape = shape.name;
          return {
            ...req,
            method: (made.method ?? 'GET') as 'GET',
            path: made.path,
            headers: made.headers,
            body: made.body as string | undefined,
          };
        },
      },
    ],
  });
  // autocannon's promise is also its event emitter (its type says only Promise).
  // One request at a time per connection: when its answer is reported, the connection's context still names it.
  type Client = { requestIterator?: { context?: { shape?: string } } };
  (run as unknown as EventEmitter).on('response', (client: Client, status: number, _bytes: number, ms: number) => {
    latencies.push(ms);
    const shape = client.requestIterator?.context?.shape;
    if (shape) (latenciesByShape[shape] ??= []).push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  const result = await run;
  const generator = process.cpuUsage(generatorStart);
  latencies.sort((a, b) => a - b);
  for (const list of Object.values(latenciesByShape)) list.sort((a, b) => a - b);
  // The load generator's own CPU (this process: autocannon and the request mix), which shares the cores.
  return {
    result,
    latencies,
    latenciesByShape,
    statuses,
    counts,
    generatorCpuMs: (generator.user + generator.system) / 1000,
  };
}

async function main() {
  if (nodeCount > 1 && !process.env.DATABASE_URL)
    throw new Error('--nodes needs DATABASE_URL: nodes share a PostgreSQL server.');
  const servers: RunningServer[] = [];
  let balancer: LoadBalancer | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  let externalName: string | undefined;
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'lp-bench-load-'));
  const dataDir = path.join(runDir, 'data');
  chmodSync(runDir, 0o755); // the embedded PostgreSQL may run as another user (server/db/embedded.ts)
  mkdirSync(dataDir);
  let databaseKind = 'given portal';
  try {
    let baseURL = givenUrl;
    if (!baseURL) {
      if (buildWebIfNeeded({ log: (line: string) => console.log(line) }) !== 0)
        throw new Error('The web build failed.');
      let databaseUrl: string | undefined;
      if (process.env.DATABASE_URL) {
        const fresh = await freshExternalDatabase(process.env.DATABASE_URL);
        databaseUrl = fresh.url;
        dropDatabase = fresh.drop;
        externalName = fresh.name;
        databaseKind = `PostgreSQL at ${new URL(process.env.DATABASE_URL).host} (database ${fresh.name})`;
      } else databaseKind = 'embedded PostgreSQL';
      console.log(`Seeding the demo lab (${databaseKind})...`);
      const database = await openDatabase({ databaseUrl, dataDir });
      await seedDemo(database.db, createStorage({ dataDir, storage: { driver: 'local' } }));
      await database.close();
      const env: NodeJS.ProcessEnv = {
        DATA_DIR: dataDir,
        JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
        LOGIN_ADDRESS_FAILURES: '10000',
        REGISTRATIONS_PER_ADDRESS: '10000',
        RUNTIME_METRICS: 'true',
        SERVE_WEB: 'true',
        WEB_ROOT: builtDir,
      };
      if (logLevel) env.LOG_LEVEL = logLevel;
      // An empty DATABASE_URL means the embedded database (config.ts), whatever this shell has.
      for (let i = 0; i < nodeCount; i++)
        servers.push(
          await startServer(
            { ...env, DATABASE_URL: databaseUrl ?? '' },
            path.join(runDir, `server-${i + 1}.log`),
            profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)] : [],
          ),
        );
      if (nodeCount > 1) {
        balancer = await startLoadBalancer(
          servers.map((s) => Number(new URL(s.baseURL).port)),
          path.join(runDir, 'balancer'),
        );
        databaseKind += `, ${nodeCount} nodes behind ${balancer.kind}`;
        baseURL = balancer.url;
      } else baseURL = servers[0]!.baseURL;
    }

    // The servers' idle memory: started, their start-up work done (the search reads the text of every seeded file in
    // a worker thread that ends when the backlog is read), nothing asked yet (sign-ins below run argon2, which takes
    // 64 MB a hash).
    const serverPids = servers.map((s) => s.child.pid!);
    let idleRss: number | null = null;
    if (serverPids.length) {
      const waited = await waitUntilQuiet(serverPids);
      idleRss = serverPids.reduce((n, pid) => n + rssOf(pid), 0);
      console.log(`Idle after ${(waited / 1000).toFixed(0)} s (start-up work done): ${mb(idleRss)} RSS.`);
    }

    const lab = await json<{ _id: string }>(await fetch(`${baseURL}/api/labs/only`));
    const photos = await json<{ webUrl: string | null }[]>(await fetch(`${baseURL}/api/labs/${lab._id}/photos`));
    const photoUrls = photos.map((p) => p.webUrl).filter((u): u is string => !!u);
    const indexHtml = await (await fetch(`${baseURL}/`, { headers: { accept: 'text/html' } })).text();
    const assets = [...indexHtml.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    const sessions = await signIn(baseURL);
    const uploads = await Promise.all(Array.from({ length: 16 }, (_, i) => letterUpload(i)));
    console.log(
      `${sessions.length} staff signed in; ${photoUrls.length} photos, ${assets.length} assets in index.html.`,
    );

    const browser = { 'accept-encoding': 'gzip, deflate, br' };
    const asJson = { ...browser, accept: 'application/json' };
    const auth = (s: Session | null) => ({ ...asJson, authorization: `Bearer ${s!.token}` });
    const pick = <T>(list: T[], n: number) => list[n % list.length]!;
    const visitor: Shape[] = [
      {
        name: 'GET / (index.html)',
        weight: 8,
        make: () => ({ path: '/', headers: { ...browser, accept: 'text/html' } }),
      },
      {
        name: 'GET /assets/* (a script)',
        weight: 4,
        make: (_s, n) => ({ path: assets.length ? pick(assets, n) : '/', headers: browser }),
      },
      { name: 'GET /api/labs/only', weight: 8, make: () => ({ path: '/api/labs/only', headers: asJson }) },
      { name: 'GET /api/labs/{id}', weight: 25, make: () => ({ path: `/api/labs/${lab._id}`, headers: asJson }) },
      {
        name: 'GET /api/labs/{id}/documents?current',
        weight: 15,
        make: () => ({ path: `/api/labs/${lab._id}/documents?current=true&limit=5`, headers: asJson }),
      },
      {
        name: 'GET /api/labs/{id}/documents',
        weight: 10,
        make: () => ({ path: `/api/labs/${lab._id}/documents`, headers: asJson }),
      },
      {
        name: 'GET /api/labs/{id}/photos',
        weight: 15,
        make: () => ({ path: `/api/labs/${lab._id}/photos`, headers: asJson }),
      },
      {
        name: 'GET /uploads/photos/* (a photo)',
        weight: 10,
        make: (_s, n) => ({ path: photoUrls.length ? pick(photoUrls, n) : '/api/labs/only', headers: browser }),
      },
    ];
    let letterNo = 0;
    const staff: Shape[] = [
      { name: 'GET /api/auth/me', weight: 10, make: (s) => ({ path: '/api/auth/me', headers: auth(s) }) },
      {
        name: 'GET /api/groups/id/{id}',
        weight: 12,
        make: (s) => ({ path: s!.groupId ? `/api/groups/id/${s!.groupId}` : '/api/groups/name', headers: auth(s) }),
      },
      {
        name: 'GET /api/groups/my-group',
        weight: 12,
        make: (s) => ({ path: '/api/groups/my-group', headers: auth(s) }),
      },
      { name: 'GET /api/users/{id}', weight: 10, make: (s) => ({ path: `/api/users/${s!.userId}`, headers: auth(s) }) },
      {
        name: 'GET /api/users?q=',
        weight: 14,
        make: (s, n) => ({ path: `/api/users?q=${pick(SEARCHES, n)}&limit=20`, headers: auth(s) }),
      },
      {
        name: 'GET /api/dac/page?q=',
        weight: 14,
        make: (s, n) => ({ path: `/api/dac/page?q=${pick(LETTER_SEARCHES, n)}&limit=20`, headers: auth(s) }),
      },
      {
        name: 'GET /api/labs/{id} (signed in)',
        weight: 10,
        make: (s) => ({ path: `/api/labs/${lab._id}`, headers: auth(s) }),
      },
      {
        name: 'POST /api/dac (a letter upload)',
        weight: 2,
        make: (s) => {
          const u = uploads[letterNo++ % uploads.length]!;
          return {
            method: 'POST',
            path: '/api/dac',
            headers: { ...auth(s), 'content-type': u.contentType },
            body: u.body,
          };
        },
      },
      {
        name: 'PUT /api/users/{id} (a profile save)',
        weight: 2,
        make: (s, n) => ({
          method: 'PUT',
          path: `/api/users/${s!.userId}`,
          headers: { ...auth(s), 'content-type': 'application/json' },
          body: JSON.stringify({ about: `Working on the morning load, save ${n}.` }),
        }),
      },
    ];
    const chooser = (shapes: Shape[]) => {
      const total = shapes.reduce((n, s) => n + s.weight, 0);
      return (r: number) => {
        let x = r * total;
        for (const s of shapes) if ((x -= s.weight) < 0) return s;
        return shapes[shapes.length - 1]!;
      };
    };
    const chooseVisitor = chooser(visitor);
    const chooseStaff = chooser(staff);

    // Every other person a visitor, the others a signed-in member of staff: with autocannon each connection is one
    // person; with wrk each request of the prepared list is the next person's.
    const personFor = (no: number) => (no % 2 === 0 ? null : sessions[Math.floor(no / 2) % sessions.length]!);
    const chooseFor = (session: Session | null) =>
      session ? chooseStaff(Math.random()) : chooseVisitor(Math.random());

    /** The morning mix with autocannon: latency by kind of request, 4xx and 5xx apart. */
    const mixWithAutocannon = async (): Promise<MixRun> => {
      const { result, latencies, latenciesByShape, statuses, counts, generatorCpuMs } = await drive({
        url: baseURL,
        connections,
        seconds,
        personFor,
        choose: chooseFor,
      });
      return {
        requests: result.requests.total,
        durationS: result.duration,
        latencyMs: {
          p50: percentile(latencies, 0.5),
          p95: percentile(latencies, 0.95),
          p99: percentile(latencies, 0.99),
          max: latencies.length ? +latencies[latencies.length - 1]!.toFixed(1) : null,
          mean: result.latency.average,
        },
        statuses,
        failedRequests: result.errors,
        statusErrors: result['4xx'] + result['5xx'],
        status4xx: result['4xx'],
        status5xx: result['5xx'],
        timeouts: result.timeouts,
        counts,
        latencyByRouteMs: Object.fromEntries(
          Object.entries(latenciesByShape)
            .map(([name, list]) => [name, { p50: percentile(list, 0.5), p99: percentile(list, 0.99) }] as const)
            .sort((a, b) => (b[1].p99 ?? 0) - (a[1].p99 ?? 0)),
        ),
        generatorCpuMs,
      };
    };
    /** The same mix with wrk over 20,000 requests made here beforehand (scripts/bench-wrk.ts). */
    const mixWithWrk = async (): Promise<MixRun> => {
      const counts: Record<string, number> = {};
      const prepared: PreparedRequest[] = [];
      for (let no = 0; no < 20_000; no++) {
        const session = personFor(no);
        const shape = chooseFor(session);
        const made = shape.make(session, no);
        counts[shape.name] = (counts[shape.name] ?? 0) + 1;
        prepared.push({ method: made.method ?? 'GET', path: made.path, headers: made.headers ?? {}, body: made.body });
      }
      const r = await driveWithWrk({
        url: baseURL,
        connections,
        seconds,
        timeoutS,
        requests: prepared,
        workDir: runDir,
      });
      return {
        requests: r.requests,
        durationS: r.durationS,
        latencyMs: r.latencyMs,
        statuses: {},
        failedRequests: r.errors.connect + r.errors.read + r.errors.write,
        statusErrors: r.errors.status,
        status4xx: null,
        status5xx: null,
        timeouts: r.timeouts,
        // The prepared list's share of each kind (wrk sends it in turn).
        counts,
        latencyByRouteMs: {},
        generatorCpuMs: r.generatorCpuMs,
      };
    };

    // One sampler per node; the database's processes are counted once (the first node's sampler).
    const memory = serverPids.map((pid, i) => sampleMemory(pid, i === 0 ? externalName : null));
    await fetch(`${baseURL}/api/health/runtime?reset=true`).catch(() => undefined);

    const clocks = serverPids.map((pid, i) => cpuClock(pid, i === 0 ? externalName : null));
    const mix = generator === 'wrk' ? await mixWithWrk() : await mixWithAutocannon();
    const cpu = sumCpu(clocks);
    const peaks = memory.map((m) => m.stop());
    const peak = peaks.length
      ? { server: peaks.reduce((n, p) => n + p.server, 0), database: peaks[0]!.database }
      : undefined;
    const runtime = await fetch(`${baseURL}/api/health/runtime`)
      .then((r) =>
        r.ok
          ? (r.json() as Promise<{
              eventLoopDelayMs: Record<string, number>;
              readQueue?: { readsAtOnce: number; mostWaiting: number };
            }>)
          : null,
      )
      .catch(() => null);

    // --per-route S: each kind of request alone for S seconds, with what it costs the server and the database in CPU
    // (the writes last, so the reads before them see the seeded lab).
    const perRoute: Record<string, unknown>[] = [];
    if (perRouteSeconds > 0)
      for (const [shape, visitorOnly] of [
        ...visitor.map((v) => [v, true] as const),
        ...staff.map((v) => [v, false] as const),
      ].sort((a, b) => Number(!a[0].name.startsWith('GET')) - Number(!b[0].name.startsWith('GET')))) {
        const routeClocks = serverPids.map((pid, i) => cpuClock(pid, i === 0 ? externalName : null));
        const one = await drive({
          url: baseURL,
          connections: Math.min(connections, 20),
          seconds: perRouteSeconds,
          personFor: (no) => (visitorOnly ? null : sessions[no % sessions.length]!),
          choose: () => shape,
        });
        const used = sumCpu(routeClocks);
        const row = {
          route: shape.name,
          requestsPerSecond: Math.round(one.result.requests.total / (one.result.duration || perRouteSeconds)),
          p50: percentile(one.latencies, 0.5),
          p99: percentile(one.latencies, 0.99),
          errors: one.result.errors + one.result['4xx'] + one.result['5xx'],
          serverCpuMs: used ? perRequest(used.server, one.result.requests.total) : null,
          databaseCpuMs: used ? perRequest(used.database, one.result.requests.total) : null,
        };
        perRoute.push(row);
        console.log(
          `  ${row.route.padEnd(42)} ${String(row.requestsPerSecond).padStart(6)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms` +
            `  server ${row.serverCpuMs} ms CPU/request, database ${row.databaseCpuMs}${row.errors ? `  ERRORS ${row.errors}` : ''}`,
        );
      }

    const errors = mix.failedRequests + mix.statusErrors;
    const summary = {
      database: databaseKind,
      nodes: servers.length || null,
      connections,
      seconds,
      cores: os.cpus().length,
      loadAverage: os.loadavg().map((n) => +n.toFixed(2)),
      generator,
      requests: mix.requests,
      requestsPerSecond: Math.round(mix.requests / (mix.durationS || seconds)),
      latencyMs: mix.latencyMs,
      statuses: mix.statuses,
      errors,
      failedRequests: mix.failedRequests,
      status4xx: mix.status4xx,
      status5xx: mix.status5xx,
      timeouts: mix.timeouts,
      eventLoopDelayMs: runtime?.eventLoopDelayMs ?? null,
      readQueue: runtime?.readQueue ?? null,
      idleServerRssMB: idleRss === null ? null : +(idleRss / 2 ** 20).toFixed(1),
      peakServerRssMB: peak ? +(peak.server / 2 ** 20).toFixed(1) : null,
      peakDatabaseMB: peak ? +(peak.database / 2 ** 20).toFixed(1) : null,
      serverCpuMsPerRequest: cpu ? perRequest(cpu.server, mix.requests) : null,
      databaseCpuMsPerRequest: cpu ? perRequest(cpu.database, mix.requests) : null,
      generatorCpuMsPerRequest: perRequest(mix.generatorCpuMs, mix.requests),
      mix: Object.fromEntries(Object.entries(mix.counts).sort((a, b) => b[1] - a[1])),
      latencyByRouteMs: mix.latencyByRouteMs,
      perRoute,
    };
    console.log(
      `\nMorning load: ${connections} connections for ${seconds} s on ${databaseKind}, driven by ${generator} (${summary.cores} shared cores, load average ${summary.loadAverage.join(' ')})`,
    );
    console.log(`  ${summary.requests} requests, ${summary.requestsPerSecond} requests/s`);
    console.log(
      `  latency p50 ${summary.latencyMs.p50} ms, p95 ${summary.latencyMs.p95} ms, p99 ${summary.latencyMs.p99} ms, max ${summary.latencyMs.max} ms`,
    );
    console.log(
      `  errors ${errors} (failed ${mix.failedRequests}, ${mix.status4xx === null ? `answers not 2xx/3xx ${mix.statusErrors}` : `4xx ${mix.status4xx}, 5xx ${mix.status5xx}`}), time-outs ${mix.timeouts}`,
    );
    if (Object.keys(summary.latencyByRouteMs).length) {
      console.log('  latency by kind of request in the mix (slowest p99 first):');
      for (const [name, l] of Object.entries(summary.latencyByRouteMs))
        console.log(`    ${name.padEnd(42)} p50 ${l.p50} ms, p99 ${l.p99} ms`);
    }
    if (runtime) {
      const d = runtime.eventLoopDelayMs;
      console.log(`  server event-loop delay: mean ${d.mean} ms, p50 ${d.p50} ms, p99 ${d.p99} ms, max ${d.max} ms`);
      const q = runtime.readQueue;
      if (q)
        console.log(`  reads at once ${q.readsAtOnce || 'unlimited'}; most reads waiting their turn ${q.mostWaiting}`);
    }
    if (cpu)
      console.log(
        `  CPU per request: server ${summary.serverCpuMsPerRequest} ms, database ${summary.databaseCpuMsPerRequest} ms, ` +
          `load generator ${summary.generatorCpuMsPerRequest} ms`,
      );
    if (peak && idleRss !== null)
      console.log(
        `  server RSS idle ${mb(idleRss)}, peak ${mb(peak.server)}; database peak ${mb(peak.database)} (Pss)`,
      );
    console.log(JSON.stringify(summary));
  } finally {
    await balancer?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await dropDatabase?.().catch((err: Error) => console.error(`Could not drop the bench database: ${err.message}`));
    rmSync(runDir, { recursive: true, force: true });
  }
}

await main();
