// `npm run bench:upload`: shows that a 1 GB repository upload streams through the server with flat memory (decision 008).
//
// Starts the real server (server/main.ts) on a temporary DATA_DIR, streams a generated ZIP-signed file of BENCH_MB
// megabytes (default 1024) over HTTP to POST /api/trialRepo, downloads it back, and samples the server process's
// resident memory (/proc/<pid>/status VmRSS every 50 ms) during each phase. Then, on a second small server with an
// 8 MB limit, checks over a real socket that an oversized upload answers 413 and one to another group answers 403,
// promptly and leaving no file behind. Then the same upload to a server scanning every upload with a real clamd
// (server/test/clamd.ts: its own config, an EICAR-only signature database, StreamMaxLength 25 MB as clamd's default, so
// the file is scanned in windows; decision 115): the throughput with scanning on against off, side by side.
// Linux only (/proc). Nothing is kept: the temporary folders are removed.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { openDatabase } from '#server/db/client.ts';
import { groups, labs, users } from '#server/db/schema/index.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { type Clamd, startClamd } from '#server/test/clamd.ts';

import { buildServerIfNeeded } from './server-build.mjs';

const MB = 1024 * 1024;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchBytes = Number(process.env.BENCH_MB || 1024) * MB;
const PASSWORD = 'bench-password';

const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

/** VmRSS and VmHWM (peak) of a process, in bytes. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Samples a process's RSS every 50 ms until stopped; returns the highest seen. */
function sampleRss(pid: number) {
  let peak = memoryOf(pid).rss;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, memoryOf(pid).rss);
    } catch {
      /* process gone */
    }
  }, 50);
  return { stop: () => (clearInterval(timer), peak) };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

/** Seeds a lab, two groups and an associate director of the first, before the server opens the database. */
async function seed(dataDir: string) {
  const database = await openDatabase({ dataDir });
  const [lab] = await database.db.insert(labs).values({ name: 'Bench Lab' }).returning();
  const [own, other] = await database.db
    .insert(groups)
    .values([
      { labId: lab!.id, name: 'Bench Group' },
      { labId: lab!.id, name: 'Other Group' },
    ])
    .returning();
  await database.db.insert(users).values({
    email: 'ad@bench.local',
    passwordHash: await hashPassword(PASSWORD),
    role: 'associate_director',
    status: 'approved',
    name: 'Bench Associate Director',
    groupId: own!.id,
  });
  await database.close();
  return { groupId: own!.id, otherGroupId: other!.id };
}

async function startServer(dataDir: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', buildServerIfNeeded()], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SERVE_WEB: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ad@bench.local', password: PASSWORD }),
  });
  if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  return { child, port, token };
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** A local file header (stored, no compression) so the content check sees a ZIP; the rest is random bytes. */
function zipHeader(dataLength: number): Buffer {
  const name = Buffer.from('payload.bin');
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt32LE(Math.min(dataLength, 0xffffffff), 18);
  h.writeUInt32LE(Math.min(dataLength, 0xffffffff), 22);
  h.writeUInt16LE(name.length, 26);
  return Buffer.concat([h, name]);
}

/**
 * Streams a multipart upload of `fileBytes` bytes, generated on the fly (never held whole), honouring backpressure.
 * Returns the status, body and seconds taken.
 */
function streamUpload(port: number, token: string, fields: Record<string, string>, fileBytes: number) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.zip"\r\nContent-Type: application/zip\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const header = zipHeader(fileBytes);
  const chunk = randomBytes(MB);
  const started = Date.now();
  return new Promise<{ status: number; body: string; seconds: number }>((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/trialRepo',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + fileBytes + tail.length,
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, seconds: (Date.now() - started) / 1000 }));
    });
    req.on('error', reject);
    (async () => {
      req.write(head);
      req.write(header);
      let left = fileBytes - header.length;
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!req.write(piece)) await new Promise((r) => req.once('drain', r));
        if (req.destroyed) return;
      }
      req.end(tail);
    })().catch(reject);
  });
}

/** Downloads a file and counts its bytes without keeping them. */
function streamDownload(port: number, token: string, filePath: string) {
  const started = Date.now();
  return new Promise<{ status: number; bytes: number; seconds: number }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: filePath, headers: { authorization: `Bearer ${token}` } }, (res) => {
        let bytes = 0;
        res.on('data', (d: Buffer) => (bytes += d.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, seconds: (Date.now() - started) / 1000 }));
      })
      .on('error', reject);
  });
}

const filesIn = (dataDir: string, area: string) => {
  const dir = path.join(dataDir, 'uploads', area);
  return existsSync(dir) ? readdirSync(dir) : [];
};

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-bench-'));
  const smallDir = mkdtempSync(path.join(os.tmpdir(), 'lp-bench-small-'));
  const scanDir = mkdtempSync(path.join(os.tmpdir(), 'lp-bench-scan-'));
  const servers: ChildProcess[] = [];
  let clamd: Clamd | null = null;
  try {
    console.log(`Seeding ${dataDir} and starting the server...`);
    const ids = await seed(dataDir);
    const { child, port, token } = await startServer(dataDir);
    servers.push(child);
    const pid = child.pid!;
    await new Promise((r) => setTimeout(r, 1000));
    const idle = memoryOf(pid).rss;

    console.log(`Uploading ${mb(benchBytes)} ZIP to POST /api/trialRepo...`);
    const upSampler = sampleRss(pid);
    const up = await streamUpload(
      port,
      token,
      { group: ids.groupId, type: 'Bench ZIP', metadata: '{"languageUsed":"C"}' },
      benchBytes,
    );
    const upPeak = upSampler.stop();
    if (up.status !== 201) throw new Error(`upload answered ${up.status}: ${up.body}`);
    const repo = JSON.parse(up.body) as { filePath: string; fileSize: number };
    const onDisk = statSync(path.join(dataDir, 'uploads', 'trial-repos', repo.filePath.split('/').pop()!)).size;

    console.log(`Downloading it back from ${repo.filePath}...`);
    const downSampler = sampleRss(pid);
    const down = await streamDownload(port, token, repo.filePath);
    const downPeak = downSampler.stop();
    const lifetimePeak = memoryOf(pid).hwm;
    await stopServer(child);

    console.log(`Uploading ${mb(benchBytes)} ZIP again, to a server that scans it with clamd...`);
    clamd = await startClamd({ streamMaxBytes: 25 * MB });
    const scanIds = await seed(scanDir);
    const scanning = await startServer(scanDir, { CLAMD_URL: clamd.url });
    servers.push(scanning.child);
    const scanSampler = sampleRss(scanning.child.pid!);
    const scanned = await streamUpload(
      scanning.port,
      scanning.token,
      { group: scanIds.groupId, type: 'Bench ZIP', metadata: '{"languageUsed":"C"}' },
      benchBytes,
    );
    const scanPeak = scanSampler.stop();
    if (scanned.status !== 201) throw new Error(`the scanned upload answered ${scanned.status}: ${scanned.body}`);
    await stopServer(scanning.child);
    const ratio = up.seconds / scanned.seconds;

    console.log('Checking refusals over a real socket (8 MB limit, 64 MB file)...');
    const smallIds = await seed(smallDir);
    const small = await startServer(smallDir, { LARGE_UPLOAD_MAX_BYTES: String(8 * MB) });
    servers.push(small.child);
    const big = await streamUpload(small.port, small.token, { group: smallIds.groupId, type: 'Too big' }, 64 * MB);
    const otherGroup = await streamUpload(
      small.port,
      small.token,
      { group: smallIds.otherGroupId, type: 'Elsewhere' },
      64 * MB,
    );
    const leftBehind = filesIn(smallDir, 'trial-repos').length;
    await stopServer(small.child);

    const rows: [string, string][] = [
      ['file size', `${mb(benchBytes)} (${benchBytes} bytes; stored ${onDisk} bytes, fileSize ${repo.fileSize})`],
      ['server RSS idle (after start)', mb(idle)],
      ['server RSS peak during upload', `${mb(upPeak)} (+${mb(upPeak - idle)} over idle)`],
      ['upload time', `${up.seconds.toFixed(1)} s (${(benchBytes / MB / up.seconds).toFixed(0)} MB/s)`],
      [
        'upload time, scanned by clamd',
        `${scanned.seconds.toFixed(1)} s (${(benchBytes / MB / scanned.seconds).toFixed(0)} MB/s; ${(ratio * 100).toFixed(0)} % of unscanned)`,
      ],
      ['server RSS peak during scanned upload', mb(scanPeak)],
      [
        'server RSS peak during download',
        `${mb(downPeak)} (+${mb(downPeak - idle)} over idle); ${down.bytes} bytes, HTTP ${down.status}`,
      ],
      ['download time', `${down.seconds.toFixed(1)} s`],
      ['server VmHWM (lifetime peak)', mb(lifetimePeak)],
      ['over the limit', `HTTP ${big.status} ${JSON.parse(big.body).message} (${big.seconds.toFixed(1)} s)`],
      [
        'to another group',
        `HTTP ${otherGroup.status} ${JSON.parse(otherGroup.body).message} (${otherGroup.seconds.toFixed(1)} s)`,
      ],
      ['files left behind by the refusals', String(leftBehind)],
    ];
    console.log('\nbench:upload results');
    for (const [k, v] of rows) console.log(`  ${k.padEnd(36)} ${v}`);
    const failed =
      onDisk !== benchBytes ||
      down.bytes !== benchBytes ||
      big.status !== 413 ||
      otherGroup.status !== 403 ||
      leftBehind !== 0;
    if (failed) console.error('\nFAILED: see the figures above.');
    console.log(
      JSON.stringify({
        bench: 'upload',
        mb: benchBytes / MB,
        uploadSeconds: up.seconds,
        scannedSeconds: scanned.seconds,
        scannedRatio: Number(ratio.toFixed(3)),
        rssPeakMb: Math.round(upPeak / MB),
        scannedRssPeakMb: Math.round(scanPeak / MB),
        failed,
      }),
    );
    process.exitCode = failed ? 1 : 0;
  } finally {
    for (const child of servers) await stopServer(child);
    await clamd?.close();
    rmSync(scanDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(smallDir, { recursive: true, force: true });
  }
}

await main();
