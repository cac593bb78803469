// `npm run bench:first-load`: what a visitor's browser loads for the home page (at most 200 KB gzip).
//
// Builds the web app if it is out of date, seeds a small lab (server/demo/seed-minimal.ts) into a temporary embedded
// PostgreSQL, starts the real server as a child process, and opens / in Chromium (/usr/bin/chromium) as a visitor
// until the home page shows its tabs. Counts every script and style sheet the page loaded (what index.html references,
// the home route's chunk and whatever it imports, the language's texts), each gzipped at level 9 (what the build's
// .gz copies hold), and the bytes that actually went over the wire (Content-Encoding as served). The last line is one
// JSON object. Options: --language hi (the Hindi visitor: only Hindi texts are loaded). The font files are counted
// apart (fontBytes, as served: woff2 does not compress further): found a 53 KB Devanagari face on the
// English page.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { openDatabase } from '#server/db/client.ts';
import { seedMinimal } from '#server/demo/seed-minimal.ts';

import { startServer } from './bench-server.ts';
import { buildWebIfNeeded, builtDir } from './web-build.mjs';

const GOAL = 200 * 1024;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const i = process.argv.indexOf('--language');
const language = i > 0 ? process.argv[i + 1]! : 'en';

interface Loaded {
  url: string;
  type: string;
  raw: number;
  gzip: number;
  wire: number;
  encoding: string;
}

async function firstLoad(baseURL: string): Promise<Loaded[]> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    const context = await browser.newContext();
    await context.addInitScript((lng) => localStorage.setItem('language', lng), language);
    const page = await context.newPage();
    const loaded: Loaded[] = [];
    const pending: Promise<void>[] = [];
    page.on('response', (res) => {
      const type = res.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet' && type !== 'font') return;
      if (res.url().startsWith('data:')) return;
      pending.push(
        (async () => {
          const body = await res.body();
          const headers = await res.allHeaders();
          const sizes = await res.request().sizes();
          loaded.push({
            url: new URL(res.url()).pathname,
            type,
            raw: body.length,
            gzip: gzipSync(body, { level: 9 }).length,
            wire: sizes.responseBodySize,
            encoding: headers['content-encoding'] ?? 'identity',
          });
        })(),
      );
    });
    await page.goto(baseURL, { waitUntil: 'networkidle' });
    await page.getByRole('tab').first().waitFor();
    await Promise.all(pending);
    return loaded;
  } finally {
    await browser.close();
  }
}

async function main() {
  if (buildWebIfNeeded({ log: (line: string) => console.log(line) }) !== 0) throw new Error('The web build failed.');
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'lp-bench-first-'));
  chmodSync(runDir, 0o755); // the embedded PostgreSQL may run as another user (server/db/embedded.ts)
  const dataDir = path.join(runDir, 'data');
  mkdirSync(dataDir);
  const database = await openDatabase({ dataDir });
  await seedMinimal(database.db);
  await database.close();
  const server = await startServer(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      SERVE_WEB: 'true',
      WEB_ROOT: builtDir,
    },
    path.join(runDir, 'server.log'),
  );
  try {
    const all = await firstLoad(server.baseURL);
    const fonts = all.filter((l) => l.type === 'font');
    const loaded = all.filter((l) => l.type !== 'font');
    const sum = (key: 'raw' | 'gzip' | 'wire', type?: string) =>
      loaded.filter((l) => !type || l.type === type).reduce((n, l) => n + l[key], 0);
    // The issue's own measure: what index.html references (script, module preloads, style sheet) and the home
    // route's chunk (home-*.js and home-*.css), each gzipped.
    const html = readFileSync(path.join(builtDir, 'index.html'), 'utf8');
    const referenced = new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!));
    const htmlAndHome = loaded.filter((l) => referenced.has(l.url) || /^\/assets\/home-[^/]+\.(js|css)$/.test(l.url));
    const result = {
      language,
      htmlAndHomeChunkGzipBytes: htmlAndHome.reduce((n, l) => n + l.gzip, 0),
      htmlAndHomeChunkFiles: htmlAndHome.length,
      files: loaded.length,
      scripts: loaded.filter((l) => l.type === 'script').length,
      styleSheets: loaded.filter((l) => l.type === 'stylesheet').length,
      rawBytes: sum('raw'),
      gzipBytes: sum('gzip'),
      gzipScriptBytes: sum('gzip', 'script'),
      gzipCssBytes: sum('gzip', 'stylesheet'),
      wireBytes: sum('wire'),
      goalBytes: GOAL,
      withinGoal: htmlAndHome.reduce((n, l) => n + l.gzip, 0) <= GOAL,
      fontFiles: fonts.length,
      fontBytes: fonts.reduce((n, l) => n + l.raw, 0),
      fonts: fonts.map((l) => ({ url: l.url, bytes: l.raw })),
      largest: loaded.sort((a, b) => b.gzip - a.gzip).map((l) => ({ url: l.url, gzip: l.gzip, encoding: l.encoding })),
    };
    console.log(`Home page first load as a visitor (${language}): ${result.files} files`);
    console.log(
      `  index.html's scripts, preloads and style sheet + the home route chunk: ${result.htmlAndHomeChunkFiles} files, ` +
        `${kb(result.htmlAndHomeChunkGzipBytes)} gzip (goal <= ${kb(GOAL)})`,
    );
    console.log('  everything the page loaded until the network was idle:');
    console.log(
      `  JavaScript ${kb(result.gzipScriptBytes)} + CSS ${kb(result.gzipCssBytes)} gzip = ${kb(result.gzipBytes)}`,
    );
    console.log(`  (raw ${kb(result.rawBytes)}; over the wire as served, headers included: ${kb(result.wireBytes)})`);
    for (const l of result.largest.slice(0, 8)) console.log(`    ${kb(l.gzip).padStart(9)}  ${l.url}  (${l.encoding})`);
    console.log(`  fonts: ${result.fontFiles} files, ${kb(result.fontBytes)}`);
    for (const l of result.fonts) console.log(`    ${kb(l.bytes).padStart(9)}  ${l.url}`);
    console.log(JSON.stringify(result));
  } finally {
    await server.stop();
    rmSync(runDir, { recursive: true, force: true });
  }
}

await main();
