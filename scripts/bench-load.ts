// `npm run bench:load -- --connections 100 --seconds 60`: a lab's morning at 09:30.
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
// --mix NAME: `team` (the default, above: the team's morning, kept so that figures stay comparable) or
// `spec-reads` (decision 089: every GET a signed-in employee, associate director and director make when opening their
// screens, weighted as a morning uses them: scripts/bench-load-mix.ts; every connection a signed-in person of those
// roles, no writes) or `audited` (the team's mix, each signed-in person having first uploaded a Confidential
// letter, with openings of that letter's card as often as register searches: each opening writes an audit row before
// it is answered; compare it with the team's mix, and with a build whose audit writes are taken out, for the audit
// trail's cost).
//
// --nodes N (with DATABASE_URL): N portal processes on that PostgreSQL, sharing one DATA_DIR, behind Debian's nginx
// (or the in-process proxy of server/test/load-balancer.ts where nginx is missing); the load goes to the balancer and
// the memory figures add up the nodes.
// Options: --connections N (default 100), --seconds S (default 60), --url URL (a running demo portal: no seeding, no
// memory figures unless it answers /api/health/runtime), --timeout S (a request slower than this is a time-out,
// default 10), --log-level L (the server's LOG_LEVEL; default: the server's own default), --cpu-prof DIR (the server
// writes a V8 CPU profile there when it stops), --per-route S (after the mix, each kind of request alone for S seconds
// over up to 20 connections, with its requests/s, latency and the CPU it costs the server and the database per request:
// where the time goes, route by route), --generator wrk (the mix driven by Debian's wrk instead of autocannon, which
// itself costs about half a millisecond of CPU a request on the shared cores: scripts/bench-wrk.ts; no latency by kind
// of request then), --routes REGEX (--per-route only for the kinds of request whose name it matches), --seconds 0
// (no mix: only --per-route), --warm-up S (the mix, and with --per-route each kind of request, first driven for S
// seconds unmeasured, so that the figures are those of a morning under way, the cached answers made; 0 by default: the
// first requests counted).
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openDatabase } from '#server/db/client.ts';
import { seedDemo } from '#server/demo/demo-seed.ts';
import { createStorage } from '#server/modules/files/storage.ts';
import { type LoadBalancer, startLoadBalancer } from '#server/test/load-balancer.ts';

import {
  drive,
  mixWithAutocannon,
  mixWithWrk,
  percentile,
  perRequest,
  report,
  type Runtime,
  sumCpu,
} from './bench-load-measure.ts';
import { makeShapes, makeSpecReads, MIXES, type MixName, type Shape, SPEC_READS_ROLES } from './bench-load-mix.ts';
import {
  freshExternalDatabase,
  json,
  letterUpload,
  type Session,
  signIn,
  uploadConfidentialLetters,
} from './bench-load-seed.ts';
import { cpuClock, mb, rssOf, type RunningServer, sampleMemory, startServer, waitUntilQuiet } from './bench-server.ts';
import { buildWebIfNeeded, builtDir } from './web-build.mjs';

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
const mixName = (option('mix') ?? 'team') as MixName;
if (!MIXES.includes(mixName)) throw new Error(`--mix is one of ${MIXES.join(', ')}.`);
const routeFilter = option('routes');
const warmUpSeconds = Number(option('warm-up') ?? 0);

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
    if (mixName === 'audited') {
      await uploadConfidentialLetters(baseURL, sessions);
      // Their text extraction, indexing and previews run now, not during the mix.
      if (serverPids.length) await waitUntilQuiet(serverPids, { maxMs: 60_000 });
    }
    console.log(
      `${sessions.length} staff signed in; ${photoUrls.length} photos, ${assets.length} assets in index.html.`,
    );

    // Who each connection (autocannon) or each prepared request (wrk) is, what they ask, and the kinds of request of
    // --per-route, with whether a visitor asks them.
    let personFor: (no: number) => Session | null;
    let chooseFor: (session: Session | null) => Shape;
    let kinds: { shape: Shape; visitorOnly: boolean }[];
    const readers = mixName === 'spec-reads' ? sessions.filter((s) => SPEC_READS_ROLES.includes(s.role)) : sessions;
    if (mixName === 'spec-reads') {
      const { shapes, choose } = makeSpecReads({ lab });
      personFor = (no) => readers[no % readers.length]!;
      chooseFor = () => choose(Math.random());
      kinds = shapes.map((shape) => ({ shape, visitorOnly: false }));
    } else {
      const { visitor, staff, chooseVisitor, chooseStaff } = makeShapes({
        lab,
        assets,
        photoUrls,
        uploads,
        audited: mixName === 'audited',
      });
      // Every other person a visitor, the others a signed-in member of staff: with autocannon each connection is one
      // person; with wrk each request of the prepared list is the next person's.
      personFor = (no) => (no % 2 === 0 ? null : sessions[Math.floor(no / 2) % sessions.length]!);
      chooseFor = (session) => (session ? chooseStaff(Math.random()) : chooseVisitor(Math.random()));
      kinds = [
        ...visitor.map((shape) => ({ shape, visitorOnly: true })),
        ...staff.map((shape) => ({ shape, visitorOnly: false })),
      ];
    }

    const mixOptions = { url: baseURL, connections, seconds, timeoutS, personFor, chooseFor, runDir };

    // One sampler per node; the database's processes are counted once (the first node's sampler).
    // --warm-up S: the mix first driven for S seconds unmeasured (the cached answers made, as a morning under way).
    if (warmUpSeconds > 0 && seconds > 0) {
      const warm = { ...mixOptions, seconds: warmUpSeconds };
      await (generator === 'wrk' ? mixWithWrk(warm) : mixWithAutocannon(warm));
    }
    const memory = serverPids.map((pid, i) => sampleMemory(pid, i === 0 ? externalName : null));
    await fetch(`${baseURL}/api/health/runtime?reset=true`).catch(() => undefined);

    const clocks = serverPids.map((pid, i) => cpuClock(pid, i === 0 ? externalName : null));
    const mix =
      seconds <= 0 ? null : generator === 'wrk' ? await mixWithWrk(mixOptions) : await mixWithAutocannon(mixOptions);
    const cpu = sumCpu(clocks);
    const peaks = memory.map((m) => m.stop());
    const peak = peaks.length
      ? { server: peaks.reduce((n, p) => n + p.server, 0), database: peaks[0]!.database }
      : undefined;
    const runtime = await fetch(`${baseURL}/api/health/runtime`)
      .then((r) => (r.ok ? (r.json() as Promise<Runtime>) : null))
      .catch(() => null);

    // --per-route S: each kind of request alone for S seconds, with what it costs the server and the database in CPU
    // (the writes last, so the reads before them see the seeded lab).
    const perRoute: Record<string, unknown>[] = [];
    if (perRouteSeconds > 0)
      for (const { shape, visitorOnly } of kinds
        .filter((k) => !routeFilter || new RegExp(routeFilter).test(k.shape.name))
        .sort((a, b) => Number(!a.shape.name.startsWith('GET')) - Number(!b.shape.name.startsWith('GET')))) {
        if (warmUpSeconds > 0)
          await drive({
            url: baseURL,
            connections: Math.min(connections, 20),
            seconds: warmUpSeconds,
            timeoutS,
            personFor: (no) => (visitorOnly ? null : readers[no % readers.length]!),
            choose: () => shape,
          });
        const routeClocks = serverPids.map((pid, i) => cpuClock(pid, i === 0 ? externalName : null));
        const one = await drive({
          url: baseURL,
          connections: Math.min(connections, 20),
          seconds: perRouteSeconds,
          timeoutS,
          personFor: (no) => (visitorOnly ? null : readers[no % readers.length]!),
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

    report({
      mixName,
      mix,
      databaseKind,
      nodes: servers.length,
      connections,
      seconds,
      generator,
      runtime,
      idleRss,
      peak,
      cpu,
      perRoute,
    });
  } finally {
    await balancer?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await dropDatabase?.().catch((err: Error) => console.error(`Could not drop the bench database: ${err.message}`));
    rmSync(runDir, { recursive: true, force: true });
  }
}

await main();
