// `bench:load -- --generator wrk`: the same morning mix driven by wrk (Debian's package, written in C), so that the
// load generator takes less of the two cores the portal shares with it. autocannon, the default, costs about half a
// millisecond of CPU a request on this machine, nearly as much as the server; wrk costs a small fraction of that.
// The requests are made beforehand in Node from the very shapes and weights of bench-load.ts and written to a file;
// wrk's Lua script reads them once and sends them in turn (each thread from its own place in the list), so wrk builds
// nothing per request. wrk reports latency for the whole mix only (no figures by kind of request) and counts answers
// other than 2xx and 3xx as errors.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { cpuMsOf } from './bench-server.ts';

export const WRK = '/usr/bin/wrk';

export interface PreparedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}

export interface WrkResult {
  requests: number;
  durationS: number;
  /** Socket errors (connect, read, write) and answers other than 2xx/3xx. */
  errors: { connect: number; read: number; write: number; status: number };
  timeouts: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number; mean: number };
  generatorCpuMs: number;
}

const SCRIPT = `-- Written by scripts/bench-wrk.ts: sends the prepared requests of args[1] (their lengths in args[2]) in turn.
local requests, count, index = {}, 0, 0
local threads = 0
function setup(thread)
  thread:set("first", threads * 7919)
  threads = threads + 1
end
function init(args)
  local data = assert(io.open(args[1], "rb")):read("*a")
  local pos = 1
  for line in assert(io.open(args[2], "r")):lines() do
    local n = tonumber(line)
    count = count + 1
    requests[count] = data:sub(pos, pos + n - 1)
    pos = pos + n
  end
  index = (first or 0) % count
end
function request()
  index = index % count + 1
  return requests[index]
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\\nWRK_RESULT {"requests":%d,"durationUs":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,' ..
      '"p50":%d,"p95":%d,"p99":%d,"max":%d,"mean":%.1f}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max, latency.mean))
end
`;

/** One HTTP/1.1 request as bytes, keep-alive. */
function raw(host: string, r: PreparedRequest): Buffer {
  const body = r.body === undefined ? Buffer.alloc(0) : Buffer.from(r.body);
  const lines = [`${r.method} ${r.path} HTTP/1.1`, `Host: ${host}`];
  for (const [k, v] of Object.entries(r.headers)) lines.push(`${k}: ${v}`);
  if (r.body !== undefined) lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]);
}

/** Drives `connections` keep-alive connections for `seconds` with wrk over `requests`, sent in turn. */
export async function driveWithWrk(opts: {
  url: string;
  connections: number;
  seconds: number;
  timeoutS: number;
  requests: PreparedRequest[];
  workDir: string;
}): Promise<WrkResult> {
  if (!existsSync(WRK)) throw new Error(`--generator wrk needs ${WRK}: apt-get install -y wrk`);
  const host = new URL(opts.url).host;
  const bytes = opts.requests.map((r) => raw(host, r));
  const dataFile = path.join(opts.workDir, 'wrk-requests.bin');
  const lengthsFile = path.join(opts.workDir, 'wrk-lengths.txt');
  const scriptFile = path.join(opts.workDir, 'wrk-mix.lua');
  writeFileSync(dataFile, Buffer.concat(bytes));
  writeFileSync(lengthsFile, `${bytes.map((b) => b.length).join('\n')}\n`);
  writeFileSync(scriptFile, SCRIPT);

  const child = spawn(
    WRK,
    [
      '-t2',
      `-c${opts.connections}`,
      `-d${opts.seconds}s`,
      '--timeout',
      `${opts.timeoutS}s`,
      '-s',
      scriptFile,
      opts.url,
      '--',
      dataFile,
      lengthsFile,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // wrk's own CPU, read from /proc while it runs (the last reading before it exits: at most a quarter second short).
  let generatorCpuMs = 0;
  const sampler = setInterval(() => {
    const ms = cpuMsOf(child.pid!);
    if (ms > 0) generatorCpuMs = ms;
  }, 250);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  const line = out.split('\n').find((l) => l.startsWith('WRK_RESULT '));
  if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}):\n${out}`);
  const r = JSON.parse(line.slice('WRK_RESULT '.length)) as Record<string, number>;
  const ms = (us: number) => +(us / 1000).toFixed(1);
  return {
    requests: r.requests!,
    durationS: r.durationUs! / 1e6,
    errors: { connect: r.connect!, read: r.read!, write: r.write!, status: r.status! },
    timeouts: r.timeout!,
    latencyMs: { p50: ms(r.p50!), p95: ms(r.p95!), p99: ms(r.p99!), max: ms(r.max!), mean: ms(r.mean!) },
    generatorCpuMs,
  };
}
