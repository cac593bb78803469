// The real portal (server/main.ts) as a child process for the benchmarks, and its memory read from /proc (Linux).
// Used by bench:load and bench:lab-home, as e2e/global-setup.ts starts the e2e server.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort } from '#server/test/load-balancer.ts';

import { buildServerIfNeeded } from './server-build.mjs';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MB = 1024 * 1024;
export const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

export { freePort };

/** Resident memory of a process in bytes: its proportional share (Pss, shared pages split) when readable, else RSS. */
export function memoryOf(pid: number): number {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const pss = /^Pss:\s+(\d+) kB/m.exec(rollup);
    if (pss) return Number(pss[1]) * 1024;
  } catch {
    // not readable: fall back to RSS
  }
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0; // gone
  }
}

/** RSS (not Pss) of one process, in bytes: what `ps` and the issue call the server's memory. */
export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** CPU time (user + system) a process has used so far, in milliseconds; 0 when it is gone. */
export function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11] and [12] are utime and stime (fields 14 and 15 of proc(5)), in clock ticks of 1/100 s on Linux.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Waits until the processes have been quiet (under `busyMs` of CPU all together per `windowMs`, on average over the
 * last `windows` windows) at most `maxMs`: a server just started is still reading its start-up backlog (the search
 * reads every stored file's text in a worker thread, which ends 10 s after its last file), and that is not what it
 * holds when idle. An idle server still wakes for its job queue's polls and timers (about 15 ms a second, counted in
 * ticks of 10 ms), so one window alone may read over `busyMs`; the average over the windows does not. Returns how
 * long it waited.
 */
export async function waitUntilQuiet(
  pids: number[],
  { windowMs = 1000, windows = 12, busyMs = 20, maxMs = 180_000 } = {},
) {
  const started = Date.now();
  const used = () => pids.reduce((n, pid) => n + cpuMsOf(pid), 0);
  const recent: number[] = [];
  let before = used();
  while (Date.now() - started < maxMs) {
    await new Promise((r) => setTimeout(r, windowMs));
    const now = used();
    recent.push(now - before);
    before = now;
    if (recent.length > windows) recent.shift();
    if (recent.length === windows && recent.reduce((a, b) => a + b, 0) < busyMs * windows) break;
  }
  return Date.now() - started;
}

/**
 * A CPU clock for the server and its database: `read()` gives the CPU milliseconds each has used since the clock was
 * made. The database's processes are looked up at each read (backends come and go); one that ended in between is
 * not counted, so the database figure is a floor.
 */
export function cpuClock(serverPid: number, database: string | undefined | null) {
  const databaseCpu = () =>
    database === null ? 0 : databasePids(serverPid, database).reduce((n, pid) => n + cpuMsOf(pid), 0);
  const start = { server: cpuMsOf(serverPid), database: databaseCpu() };
  return {
    read: () => ({ server: cpuMsOf(serverPid) - start.server, database: databaseCpu() - start.database }),
  };
}

interface Proc {
  pid: number;
  ppid: number;
  cmdline: string;
}
function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      out.push({ pid: Number(name), ppid, cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * The database's processes: the embedded PostgreSQL is a descendant of the server (postmaster and its backends); on
 * an external server, the backends serving `database` (their title names it) are counted.
 */
export function databasePids(serverPid: number, database?: string): number[] {
  const all = processes();
  if (database)
    return all
      .filter((p) => p.cmdline.startsWith('postgres: ') && p.cmdline.includes(` ${database} `))
      .map((p) => p.pid);
  const children = new Map<number, number[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(serverPid);
  return found;
}

/**
 * Samples the server's RSS and the database's memory (sum of Pss; `database` null: not counted) every `everyMs` until
 * stopped; keeps the peaks.
 */
export function sampleMemory(serverPid: number, database: string | undefined | null, everyMs = 250) {
  const peak = { server: 0, database: 0 };
  const sample = () => {
    peak.server = Math.max(peak.server, rssOf(serverPid));
    if (database === null) return; // the database is counted by another sampler
    peak.database = Math.max(
      peak.database,
      databasePids(serverPid, database).reduce((n, pid) => n + memoryOf(pid), 0),
    );
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    peak,
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

export interface RunningServer {
  baseURL: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * Starts the compiled server (`npm start`'s dist/server/main.mjs) with `env` on a free port and waits for
 * /api/health. `nodeArgs` go to
 * node, e.g. ['--cpu-prof', '--cpu-prof-dir', dir] (the profile is written when the server exits).
 */
export async function startServer(
  env: NodeJS.ProcessEnv,
  logFile: string,
  nodeArgs: string[] = [],
): Promise<RunningServer> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [...nodeArgs, '--enable-source-maps', buildServerIfNeeded()], {
    cwd: projectRoot,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server stopped (exit ${child.exitCode}); see ${logFile}.`);
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not become healthy in 90 s; see ${logFile}.`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseURL,
    child,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
      log.end();
    },
  };
}
