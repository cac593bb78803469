// `npm run bench:previews`: what the sandbox of the parsers (decision 091) costs the previews, and what a long PDF
// costs the server's answers.
//
// Starts the real server (npm start's bundle, dist/server/main.mjs of the checkout this script runs from) on a fresh
// database of BENCH_DATABASE_URL's server (default the machine's PostgreSQL), with RUNTIME_METRICS=true. Uploads, as
// close-group documents, RUNS files of each kind (a 40-page PDF of ~400 KB, a 2000x1500 PNG photo, a .docx, an .xlsx)
// one after another, and times each from the upload's answer to its file_previews row leaving `pending` (the job
// queue is notified at commit, so that is the preview's own time plus the queue's pick-up). Then uploads a 3,000-page
// PDF of ~1 MB and reads /api/health/runtime's event-loop delay over the time its preview takes (goal: p99 < 50 ms).
//
// BENCH_CHECKOUTS=name=/path,name=/path compares builds side by side: each other checkout's server (its
// dist/server/main.mjs, compiled by its own scripts/server-build.mjs; its node_modules may be a link to this one's)
// runs beside this one ("this"), each on a database of its own, and every run of every kind goes to each build in
// turn (the order rotating), so that the machine's other load falls on them alike. The long PDF goes to one build at
// a time. Prints the figures, then ONE JSON line.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';

import pg from 'pg';
import sharp from 'sharp';

import { docxWithText, pdfWithPages, xlsxWithText } from '#server/test/documents.ts';
import { multipart } from '#server/test/multipart.ts';
import { killServer, login, type ServerProcess, startServer, waitHealthy } from '#server/test/server-process.ts';

import { buildServerIfNeeded } from './server-build.mjs';

const RUNS = Number(process.env.BENCH_RUNS || 5);
/** The pause before each upload: the previous upload's background work (its text, the next parser process) ends first. */
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 2000);
/** The kinds to run (all by default): e.g. BENCH_KINDS=pdf,image. */
const KINDS = (process.env.BENCH_KINDS || 'pdf,image,docx,xlsx').split(',');
const GOAL_P99_MS = 50;
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = { ADMIN_EMAIL: 'bench.admin@lab.test', ADMIN_PASSWORD: 'Bench-Admin-2026' };

/** Each build's server entry: this checkout's, then BENCH_CHECKOUTS' in their order. */
function entries(): [string, string][] {
  const others = (process.env.BENCH_CHECKOUTS ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair): [string, string] => {
      const [name, dir] = pair.split('=') as [string, string];
      const build = spawnSync(
        process.execPath,
        ['--input-type=module', '-e', `(await import('${dir}/scripts/server-build.mjs')).buildServerIfNeeded()`],
        { stdio: 'inherit' },
      );
      if (build.status !== 0) throw new Error(`could not build ${dir}`);
      return [name, path.join(dir, 'dist', 'server', 'main.mjs')];
    });
  return [['this', buildServerIfNeeded()], ...others];
}

interface Build {
  name: string;
  server: ServerProcess;
  base: string;
  db: pg.Client;
  auth: Record<string, string>;
  groupId: string;
}

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const databases: string[] = [];
const builds: Build[] = [];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function start(name: string, entry: string): Promise<Build> {
  const dbName = `lp_bench_previews_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  await admin.query(`create database ${dbName}`);
  databases.push(dbName);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const env = { ...ADMIN, DATABASE_URL: url.toString(), JWT_SECRET: randomUUID(), RUNTIME_METRICS: 'true' };
  const server = startServer(env, entry);
  const db = new pg.Client({ connectionString: url.toString() });
  const build = { name, server, db, base: '', auth: {}, groupId: '' };
  builds.push(build);
  build.base = await waitHealthy(server);
  await db.connect();
  const { token, user } = (await (await login(build.base, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD)).json()) as {
    token: string;
    user: { _id: string };
  };
  build.auth = { authorization: `Bearer ${token}` };
  const group = await fetch(`${build.base}/admin/close-group`, {
    method: 'POST',
    headers: { ...build.auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      groupName: 'Bench previews',
      groupPurpose: 'bench',
      groupDuration: { from: '2020-01-01', to: '2099-12-31' },
      requestedBy: [user._id],
      adminRemarks: '',
    }),
  });
  build.groupId = ((await group.json()) as { _id: string })._id;
  return build;
}

/** Uploads one file; resolves with the ms until its preview is no longer pending, and its state. */
async function previewTime(b: Build, filename: string, content: Buffer) {
  const body = multipart({}, { field: 'document', filename, content });
  const res = await fetch(`${b.base}/api/close-groups/${b.groupId}/upload`, {
    method: 'POST',
    body: new Uint8Array(body.payload),
    headers: { ...body.headers, ...b.auth },
  });
  if (res.status !== 201) throw new Error(`upload ${filename}: ${res.status} ${await res.text()}`);
  const started = performance.now();
  const storedName = ((await res.json()) as { document: { url: string } }).document.url.split('/').pop();
  for (;;) {
    const { rows } = await b.db.query<{ status: string; reason: string | null }>(
      `select p.status, p.reason from file_previews p join files f on f.id = p.file_id where f.stored_name = $1`,
      [storedName],
    );
    if (rows[0] && rows[0].status !== 'pending') return { ms: performance.now() - started, ...rows[0] };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

try {
  for (const [name, entry] of entries()) await start(name, entry);
  const photo = await sharp({
    create: {
      width: 2000,
      height: 1500,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .png()
    .toBuffer();
  const kinds: [string, string, () => Buffer][] = [
    [
      'pdf',
      'pdf',
      () =>
        pdfWithPages(
          Array.from({ length: 40 }, (_, p) => `Bench page ${p + 1}`),
          400,
        ),
    ],
    ['image', 'png', () => photo],
    ['docx', 'docx', () => docxWithText('Bench memo')],
    ['xlsx', 'xlsx', () => xlsxWithText('Bench ledger')],
  ];
  type Figures = { medianMs: number; runs: number[]; status: string };
  const results: Record<string, Record<string, Figures>> = Object.fromEntries(builds.map((b) => [b.name, {}]));
  for (const [kind, ext, make] of kinds.filter(([k]) => KINDS.includes(k))) {
    for (const b of builds) results[b.name]![kind] = { medianMs: 0, runs: [], status: '' };
    for (let i = 0; i < RUNS; i++) {
      // The order rotates: no build always goes first after another's preview.
      for (let j = 0; j < builds.length; j++) {
        const b = builds[(i + j) % builds.length]!;
        await new Promise((resolve) => setTimeout(resolve, GAP_MS));
        const r = await previewTime(b, `bench-${kind}-${i}.${ext}`, make());
        const figures = results[b.name]![kind]!;
        figures.runs.push(Math.round(r.ms));
        figures.status = r.status + (r.reason ? ` (${r.reason})` : '');
      }
    }
    for (const b of builds) {
      const figures = results[b.name]![kind]!;
      figures.medianMs = median(figures.runs);
      console.log(
        `${b.name.padEnd(8)} ${kind.padEnd(6)} preview: median ${figures.medianMs} ms over ${RUNS} ` +
          `(${figures.runs.join(', ')}), ${figures.status}`,
      );
    }
  }

  // The long PDF: the event-loop delay over its upload and preview, one build at a time.
  const long = pdfWithPages(
    Array.from({ length: 3000 }, (_, p) => `Range register page ${p + 1}`),
    400,
  );
  const longPdf: Record<string, { previewMs: number; p99: number; max: number }> = {};
  for (const b of builds) {
    await fetch(`${b.base}/api/health/runtime?reset=true`);
    const longPreview = await previewTime(b, 'register-3000.pdf', long);
    const runtime = (await (await fetch(`${b.base}/api/health/runtime`)).json()) as {
      eventLoopDelayMs: { p99: number; max: number };
    };
    const { p99, max } = runtime.eventLoopDelayMs;
    longPdf[b.name] = { previewMs: Math.round(longPreview.ms), p99, max };
    console.log(
      `${b.name.padEnd(8)} 3,000-page PDF (${(long.length / 1024 / 1024).toFixed(2)} MB): preview ` +
        `${Math.round(longPreview.ms)} ms, ${longPreview.status}; event-loop delay p99 ${p99} ms, max ${max} ms ` +
        `(goal p99 < ${GOAL_P99_MS} ms)`,
    );
  }
  const figuresOf = (name: string) => ({
    previewMedianMs: Object.fromEntries(Object.entries(results[name]!).map(([k, v]) => [k, v.medianMs])),
    longPdf: { pages: 3000, mb: +(long.length / 1024 / 1024).toFixed(2), previewMs: longPdf[name]!.previewMs },
    eventLoopDelayMs: { p99: longPdf[name]!.p99, max: longPdf[name]!.max },
  });
  console.log(
    JSON.stringify({
      bench: 'previews',
      runs: RUNS,
      ...figuresOf('this'),
      ...(builds.length > 1 && {
        builds: Object.fromEntries(builds.slice(1).map((b) => [b.name, figuresOf(b.name)])),
      }),
      goalP99Ms: GOAL_P99_MS,
    }),
  );
} finally {
  for (const b of builds) {
    await b.db.end().catch(() => {});
    await killServer(b.server);
  }
  for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
