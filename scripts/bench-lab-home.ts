// `npm run bench:lab-home`: the lab home's main read against the platform's limit.
//
// Seeds a lab the size of a busy year (contact info, the director's office, 12 directors, 120 notices, 80 circulars,
// 30 products and advertisements) into a temporary embedded PostgreSQL (or a fresh database on DATABASE_URL's server),
// starts the real server as a child process, and a bare `node:http` server in another child process that answers
// every request with a body of the same size (the same bytes). Then autocannon drives both in turn, in one run, with
// --connections keep-alive connections for --seconds each, --rounds times (bare, portal, bare, portal...: noise from
// the other engineers on this shared machine falls on both), and prints requests/s of each, latency, and the ratio
// portal / bare (goal: at least 0.5). The last line is one JSON object.
// Options: --seconds S (default 5 per round), --connections C (default 16), --rounds R (default 2), --cpu-prof DIR
// (the server writes a V8 CPU profile into DIR when it stops: open it in Chrome DevTools or summarise it).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import autocannon from 'autocannon';
import pg from 'pg';

import { openDatabase } from '#server/db/client.ts';
import { contactInfos, directorEntries, files, labItems, labs, officeMembers } from '#server/db/schema/index.ts';

import { freePort, startServer } from './bench-server.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 5);
const connections = arg('connections', 16);
const rounds = arg('rounds', 2);
const profileDir = process.argv.includes('--cpu-prof')
  ? process.argv[process.argv.indexOf('--cpu-prof') + 1]
  : undefined;

async function seed(db: Awaited<ReturnType<typeof openDatabase>>['db']) {
  const [lab] = await db
    .insert(labs)
    .values({
      name: 'Centre for Fire, Explosive and Environment Safety',
      domain: 'Fire, explosive and environment safety',
      about: 'Research in fire safety. Explosive safety. Environment safety.\n'.repeat(8),
      vision: 'A nation safe from fire and explosive hazards.',
      mission: 'Research, test and train.',
      history: 'Set up in 1950. Renamed in 1992.\n'.repeat(10),
    })
    .returning();
  const labId = lab!.id;
  await db.insert(contactInfos).values(
    ['Email', 'Phone', 'Address', 'Other'].map((type, position) => ({
      labId,
      type: type as 'Email',
      label: `Label ${position}`,
      value: `Value ${position}`,
      position,
    })),
  );
  await db
    .insert(officeMembers)
    .values(Array.from({ length: 8 }, (_, i) => ({ labId, name: `Officer ${i}`, designation: 'PS', position: i })));
  await db.insert(directorEntries).values(
    Array.from({ length: 12 }, (_, i) => ({
      labId,
      name: `Director ${i}`,
      designation: 'Director',
      from: `${1960 + i * 5}-04-01`,
      to: i === 11 ? null : `${1965 + i * 5}-03-31`,
      about: 'Led the lab. '.repeat(20),
    })),
  );
  const kinds = [
    ['notice', 120],
    ['circular', 80],
    ['product', 20],
    ['advertisement', 10],
  ] as const;
  for (const [kind, count] of kinds) {
    const area = `${kind}s`;
    const fileRows = await db
      .insert(files)
      .values(
        Array.from({ length: count }, (_, i) => ({
          area,
          storedName: `${kind}-${i}`,
          originalName: `${kind}-${i}.pdf`,
          mimeType: 'application/pdf',
          size: 1000,
        })),
      )
      .returning({ id: files.id });
    await db.insert(labItems).values(
      fileRows.map((f, i) => ({
        labId,
        kind,
        name: `${kind} ${i}`,
        description: `About ${kind} ${i}: `.repeat(4),
        fileId: f.id,
        validUntil: i % 3 === 0 ? '2020-01-01' : null,
      })),
    );
  }
  return labId;
}

/** A bare node:http server in its own process, answering every request with `body` as JSON. */
async function startBare(bodyFile: string) {
  const port = await freePort();
  const code = `
    const body = require('node:fs').readFileSync(${JSON.stringify(bodyFile)});
    require('node:http').createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    }).listen(${port}, '127.0.0.1', () => process.send('ready'));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (c) => reject(new Error(`The bare server stopped (exit ${c}).`)));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') };
}

async function drive(url: string) {
  const r = await autocannon({ url, connections, duration: seconds });
  return {
    requests: r.requests.total,
    seconds: r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}

async function main() {
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'lp-bench-lab-'));
  chmodSync(runDir, 0o755); // the embedded PostgreSQL may run as another user (server/db/embedded.ts)
  const dataDir = path.join(runDir, 'data');
  mkdirSync(dataDir);
  let databaseUrl: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  if (process.env.DATABASE_URL) {
    const name = `lp_bench_lab_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    drop = async () => {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const database = await openDatabase({ databaseUrl, dataDir });
  const labId = await seed(database.db);
  await database.close();
  const server = await startServer(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      SERVE_WEB: 'false',
    },
    path.join(runDir, 'server.log'),
    profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)] : [],
  );
  let bare: Awaited<ReturnType<typeof startBare>> | undefined;
  try {
    const portalUrl = `${server.baseURL}/api/labs/${labId}`;
    const body = Buffer.from(await (await fetch(portalUrl)).arrayBuffer());
    const bodyFile = path.join(runDir, 'body.json');
    writeFileSync(bodyFile, body);
    bare = await startBare(bodyFile);
    await autocannon({ url: portalUrl, connections, duration: 1 }); // warm up both
    await autocannon({ url: bare.url, connections, duration: 1 });
    console.log(
      `Lab home vs bare node:http: GET /api/labs/{id}, ${body.length} bytes, ${connections} connections, ` +
        `${rounds} x ${seconds} s each, ${databaseUrl ? 'PostgreSQL' : 'embedded PostgreSQL'}, ` +
        `${os.cpus().length} shared cores (load average ${os.loadavg()[0]!.toFixed(2)})`,
    );
    const portal: Awaited<ReturnType<typeof drive>>[] = [];
    const baseline: Awaited<ReturnType<typeof drive>>[] = [];
    for (let i = 0; i < rounds; i++) {
      baseline.push(await drive(bare.url));
      portal.push(await drive(portalUrl));
    }
    const rps = (runs: typeof portal) =>
      Math.round(runs.reduce((n, r) => n + r.requests, 0) / runs.reduce((n, r) => n + r.seconds, 0));
    const result = {
      bodyBytes: body.length,
      connections,
      seconds,
      rounds,
      portal: {
        rps: rps(portal),
        p50ms: portal.at(-1)!.p50,
        p99ms: portal.at(-1)!.p99,
        errors: portal.reduce((n, r) => n + r.errors, 0),
      },
      bare: { rps: rps(baseline), p50ms: baseline.at(-1)!.p50, p99ms: baseline.at(-1)!.p99 },
      ratio: +(rps(portal) / rps(baseline)).toFixed(3),
    };
    console.log(`  portal  ${result.portal.rps} req/s  p50 ${result.portal.p50ms} ms  p99 ${result.portal.p99ms} ms`);
    console.log(`  bare    ${result.bare.rps} req/s  p50 ${result.bare.p50ms} ms  p99 ${result.bare.p99ms} ms`);
    console.log(`  ratio   ${result.ratio} (goal >= 0.5)`);
    console.log(JSON.stringify(result));
  } finally {
    bare?.stop();
    await server.stop();
    await drop?.();
    rmSync(runDir, { recursive: true, force: true });
  }
}

await main();
