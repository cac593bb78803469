import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { clusterHome } from '#server/db/embedded-location.ts';

import { buildServerIfNeeded } from '../../scripts/server-build.mjs';

export interface ServerProcess {
  child: ReturnType<typeof spawn>;
  dataDir: string;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts the real server as `npm start` runs it (dist/server/main.mjs, compiled when out of date; or another checkout's
 * `entry`) on a port the system chooses, with an empty DATA_DIR unless given. The
 * child leads its own process group (`detached`), so a test can kill the group as an operator's `kill -9 -PGID` would.
 */
export function startServer(env: Record<string, string>, entry = buildServerIfNeeded()): ServerProcess {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'lp-main-'));
  const child = spawn(process.execPath, ['--enable-source-maps', entry], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: '0',
      HOST: '127.0.0.1',
      SERVE_WEB: 'false',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      ...env,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, dataDir, output: () => output, exited };
}

/** Waits for the "listening" log line, then for GET /api/health 200; returns the base URL. */
export async function waitHealthy(s: ServerProcess, timeoutMs = 120000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (s.child.exitCode !== null) throw new Error(`server exited (${s.child.exitCode}):\n${s.output()}`);
    const port = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(s.output())?.[1];
    if (port) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.status === 200) return `http://127.0.0.1:${port}`;
      } catch {
        /* not answering yet */
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server did not become healthy:\n${s.output()}`);
}

export const login = (base: string, email: string, password: string) =>
  fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

/** The pid of the embedded PostgreSQL serving this DATA_DIR, if one runs. */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    const pgdata = path.join(clusterHome(dataDir), 'pgdata');
    const pid = Number(readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/** Ends a test server whatever its state: the portal's process group, then its embedded PostgreSQL (own group). */
export async function killServer(s: ServerProcess): Promise<void> {
  try {
    process.kill(-s.child.pid!, 'SIGKILL');
  } catch {
    /* gone */
  }
  await s.exited;
  const pid = postmasterPid(s.dataDir);
  if (pid) {
    process.kill(pid, 'SIGQUIT');
    for (let i = 0; i < 100 && postmasterPid(s.dataDir); i++) await new Promise((r) => setTimeout(r, 50));
  }
}
