// `npm run bench:previews`: what the sandbox of the parsers (decision 091) costs the previews, and what a long PDF
// costs the server's answers.
//
// Starts the real server (npm start's bundle, dist/server/main.mjs of the checkout this script runs from) on a fresh
// database of BENCH_DATABASE_URL's server (default the machine's PostgreSQL), with RUNTIME_METRICS=true. Uploads, as
// close-group documents, RUNS files of each kind (a 40-page PDF of ~400 KB, a 2000x1500 PNG photo, a .docx, an .xlsx)
// one after another, and times each from the upload's answer to its file_previews row leaving `pending` (the job
// queue is notified at commit, so that is the preview's own time plus the queue's pick-up). Then uploads a 3,000-page
// PDF of ~1 MB and reads /api/health/runtime's event-loop delay over the time its preview takes (goal: p99 < 50 ms).
// Prints the figures, then ONE JSON line. The same script measured main's code (before) from a worktree of main.
import { randomUUID } from 'node:crypto';

import pg from 'pg';
import sharp from 'sharp';

import { docxWithText, pdfWithPages, xlsxWithText } from '#server/test/documents.ts';
import { multipart } from '#server/test/multipart.ts';
import { killServer, login, startServer, waitHealthy } from '#server/test/server-process.ts';

const RUNS = Number(process.env.BENCH_RUNS || 5);
const GOAL_P99_MS = 50;
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = { ADMIN_EMAIL: 'bench.admin@lab.test', ADMIN_PASSWORD: 'Bench-Admin-2026' };

const dbName = `lp_bench_previews_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${dbName}`);
const url = new URL(adminUrl);
url.pathname = `/${dbName}`;
const databaseUrl = url.toString();

const server = startServer({
  ...ADMIN,
  DATABASE_URL: databaseUrl,
  JWT_SECRET: randomUUID(),
  RUNTIME_METRICS: 'true',
});
const db = new pg.Client({ connectionString: databaseUrl });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  const base = await waitHealthy(server);
  await db.connect();
  const { token, user } = (await (await login(base, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD)).json()) as {
    token: string;
    user: { _id: string };
  };
  const auth = { authorization: `Bearer ${token}` };
  const group = await fetch(`${base}/admin/close-group`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      groupName: 'Bench previews',
      groupPurpose: 'bench',
      groupDuration: { from: '2020-01-01', to: '2099-12-31' },
      requestedBy: [user._id],
      adminRemarks: '',
    }),
  });
  const groupId = ((await group.json()) as { _id: string })._id;

  /** Uploads one file; resolves with the ms until its preview is no longer pending, and its state. */
  async function previewTime(filename: string, content: Buffer) {
    const body = multipart({}, { field: 'document', filename, content });
    const res = await fetch(`${base}/api/close-groups/${groupId}/upload`, {
      method: 'POST',
      body: new Uint8Array(body.payload),
      headers: { ...body.headers, ...auth },
    });
    if (res.status !== 201) throw new Error(`upload ${filename}: ${res.status} ${await res.text()}`);
    const started = performance.now();
    const storedName = ((await res.json()) as { document: { url: string } }).document.url.split('/').pop();
    for (;;) {
      const { rows } = await db.query<{ status: string; reason: string | null }>(
        `select p.status, p.reason from file_previews p join files f on f.id = p.file_id where f.stored_name = $1`,
        [storedName],
      );
      if (rows[0] && rows[0].status !== 'pending') return { ms: performance.now() - started, ...rows[0] };
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

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
  const results: Record<string, { medianMs: number; runs: number[]; status: string }> = {};
  for (const [kind, ext, make] of kinds) {
    const runs: number[] = [];
    let status = '';
    for (let i = 0; i < RUNS; i++) {
      const r = await previewTime(`bench-${kind}-${i}.${ext}`, make());
      runs.push(Math.round(r.ms));
      status = r.status + (r.reason ? ` (${r.reason})` : '');
    }
    results[kind] = { medianMs: median(runs), runs, status };
    console.log(`${kind.padEnd(6)} preview: median ${median(runs)} ms over ${RUNS} (${runs.join(', ')}), ${status}`);
  }

  // The long PDF: the event-loop delay over its upload and preview.
  await fetch(`${base}/api/health/runtime?reset=true`);
  const long = pdfWithPages(
    Array.from({ length: 3000 }, (_, p) => `Range register page ${p + 1}`),
    400,
  );
  const longPreview = await previewTime('register-3000.pdf', long);
  const runtime = (await (await fetch(`${base}/api/health/runtime`)).json()) as {
    eventLoopDelayMs: { p99: number; max: number };
  };
  const { p99, max } = runtime.eventLoopDelayMs;
  console.log(
    `3,000-page PDF (${(long.length / 1024 / 1024).toFixed(2)} MB): preview ${Math.round(longPreview.ms)} ms, ` +
      `${longPreview.status}; event-loop delay p99 ${p99} ms, max ${max} ms (goal p99 < ${GOAL_P99_MS} ms)`,
  );
  console.log(
    JSON.stringify({
      bench: 'previews',
      runs: RUNS,
      previewMedianMs: Object.fromEntries(Object.entries(results).map(([k, v]) => [k, v.medianMs])),
      longPdf: { pages: 3000, mb: +(long.length / 1024 / 1024).toFixed(2), previewMs: Math.round(longPreview.ms) },
      eventLoopDelayMs: { p99, max },
      goalP99Ms: GOAL_P99_MS,
    }),
  );
} finally {
  await db.end().catch(() => {});
  await killServer(server);
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}
