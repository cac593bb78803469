// `npm run bench:lab-home`: how quick the lab home is (issue 4).
//
// Starts the real app in this process on a temporary embedded database (PGlite in a temporary folder; the built web
// app from dist/web, built first if out of date), seeds a lab the size of a busy year (contact info, the director's
// office, 12 directors, 120 notices, 80 circulars, 30 products and advertisements), then:
//   1. requests per second of GET /api/labs/{id} and GET /api/labs/{id}/documents?current=true (the home's two lab
//      calls), with --concurrency parallel keep-alive clients for --seconds each, with p50 / p95 latency;
//   2. the JavaScript the home page loads on a first visit, in Chromium (/usr/bin/chromium), raw and gzipped
//      (the portal is usually behind a proxy that compresses; gzip -6 here), and the number of script files;
//   3. the photo resizing: bytes of a 3000 x 2000 camera-like JPEG and of the web copy the carousel loads.
// The last line is one JSON object. Options: --seconds S (default 5), --concurrency C (default 16), --no-browser.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { contactInfos, directorEntries, files, labItems, labs, officeMembers } from '#server/db/schema/index.ts';
import { makeWebPhoto } from '#server/modules/gallery/gallery.service.ts';
import { buildWebIfNeeded } from './web-build.mjs';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 5);
const concurrency = arg('concurrency', 16);
const withBrowser = !process.argv.includes('--no-browser');

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-bench-lab-'));
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

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

/** `concurrency` keep-alive clients asking for `url` as fast as answers come, for `seconds`. */
async function load(url: string) {
  const latencies: number[] = [];
  let failures = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status !== 200) failures++;
      latencies.push(performance.now() - t0);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!;
  return {
    requests: latencies.length,
    failures,
    rps: Math.round(latencies.length / elapsed),
    p50ms: +pct(0.5).toFixed(1),
    p95ms: +pct(0.95).toFixed(1),
  };
}

/** The scripts a first visit to / loads, in Chromium, raw and gzipped. */
async function homeScripts(baseURL: string) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    const page = await browser.newPage();
    const scripts: { url: string; raw: number; gzip: number }[] = [];
    const pending: Promise<void>[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() !== 'script') return;
      pending.push(
        res.body().then((body) => {
          scripts.push({
            url: new URL(res.url()).pathname,
            raw: body.length,
            gzip: gzipSync(body, { level: 6 }).length,
          });
        }),
      );
    });
    await page.goto(baseURL, { waitUntil: 'networkidle' });
    await page.getByRole('tab', { name: 'About Lab' }).waitFor();
    await Promise.all(pending);
    const raw = scripts.reduce((n, s) => n + s.raw, 0);
    const gzip = scripts.reduce((n, s) => n + s.gzip, 0);
    return { files: scripts.length, raw, gzip, largest: scripts.sort((a, b) => b.gzip - a.gzip).slice(0, 5) };
  } finally {
    await browser.close();
  }
}

/** A camera-like photo (texture at three scales, so it compresses as a photo does, not as a flat colour). */
async function photoFigures() {
  const W = 3000;
  const H = 2000;
  const layer = async (sigma: number, blur: number) => {
    const base = sharp({
      create: {
        width: W,
        height: H,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma },
      },
    });
    return (blur ? base.blur(blur) : base).png().toBuffer();
  };
  const original = await sharp({ create: { width: W, height: H, channels: 3, background: '#6f8f5a' } })
    .composite([
      { input: await layer(120, 40), blend: 'overlay' },
      { input: await layer(90, 8), blend: 'overlay' },
      { input: await layer(60, 1.5), blend: 'soft-light' },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
  const absolutePath = path.join(dataDir, 'uploads', 'photos', 'bench-original');
  mkdirSync(path.dirname(absolutePath), { recursive: true });
  writeFileSync(absolutePath, original);
  const web = await makeWebPhoto({
    id: 'bench-original',
    area: 'photos',
    originalName: 'camera.jpg',
    mimeType: 'image/jpeg',
    size: original.length,
    absolutePath,
  });
  const meta = await sharp(web.absolutePath).metadata();
  return {
    originalBytes: original.length,
    originalPx: `${W}x${H}`,
    webBytes: web.size,
    webPx: `${meta.width}x${meta.height}`,
  };
}

async function main() {
  if (withBrowser && buildWebIfNeeded({ log: (line: string) => console.log(line) }) !== 0)
    throw new Error('The web build failed.');
  const database = await openDatabase({ dataDir });
  const labId = await seed(database.db);
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    SERVE_WEB: String(withBrowser),
  });
  const app = await buildApp({ config, database, logger: false });
  const baseURL = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    console.log(`Lab home benchmark: ${concurrency} clients, ${seconds} s per call, PGlite, ${os.cpus().length} cores`);
    const record = await load(`${baseURL}/api/labs/${labId}`);
    console.log(
      `GET /api/labs/{id}                     ${record.rps} req/s  p50 ${record.p50ms} ms  p95 ${record.p95ms} ms`,
    );
    const documents = await load(`${baseURL}/api/labs/${labId}/documents?current=true`);
    console.log(
      `GET /api/labs/{id}/documents?current   ${documents.rps} req/s  p50 ${documents.p50ms} ms  p95 ${documents.p95ms} ms`,
    );
    const scripts = withBrowser ? await homeScripts(baseURL) : null;
    if (scripts)
      console.log(
        `Home page JavaScript on first load: ${scripts.files} files, ${kb(scripts.raw)} raw, ${kb(scripts.gzip)} gzipped`,
      );
    const photos = await photoFigures();
    console.log(
      `Photo: ${photos.originalPx} JPEG ${kb(photos.originalBytes)} -> web copy ${photos.webPx} WebP ${kb(photos.webBytes)}`,
    );
    console.log(JSON.stringify({ seconds, concurrency, labRecord: record, documents, homeScripts: scripts, photos }));
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
