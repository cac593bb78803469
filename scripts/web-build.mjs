// The built web app (dist/web) and when it must be rebuilt. Used by `npm start` (start.mjs) and the e2e global setup.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const builtIndex = path.join(projectRoot, 'dist', 'web', 'index.html');

/** Folders and files whose change means the bundle is out of date. */
const SOURCES = ['web', 'shared', 'vite.config.ts', 'postcss.config.cjs', 'postcss.config.js', 'package-lock.json'];

/** Newest modification time (ms) of a file or, recursively, of a folder's files. */
export function newestMtime(target) {
  let stats;
  try {
    stats = statSync(target);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs; // a deleted file changes its folder's mtime
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** Why the web app must be (re)built, or null when dist/web is up to date. */
export function webBuildReason() {
  if (!existsSync(builtIndex)) return 'dist/web/index.html is missing';
  const built = statSync(builtIndex).mtimeMs;
  const newest = Math.max(...SOURCES.map((s) => newestMtime(path.join(projectRoot, s))));
  return newest > built ? 'the web sources changed since the last build' : null;
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * One build at a time in this working tree (two test runs starting together must not both empty dist/web): a lock
 * folder, taken over when it is older than five minutes (a build that died).
 */
export function withBuildLock(fn) {
  const lock = path.join(projectRoot, 'dist', '.build-lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      let age;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      if (age > 5 * 60_000) rmSync(lock, { recursive: true, force: true });
      else sleep(250);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export const builtDir = path.dirname(builtIndex);

/**
 * Runs `vite build` in a child process when needed; returns its exit code (0 when nothing needed doing). With
 * `snapshotTo`, also copies the build there before anyone can rebuild it (the e2e server serves that copy, so a
 * rebuild in the same working tree cannot pull its lazy chunks away in the middle of a run).
 */
export function buildWebIfNeeded({ log = (line) => console.log(line), force = false, snapshotTo = undefined } = {}) {
  if (!force && !snapshotTo && !webBuildReason()) return 0;
  return withBuildLock(() => {
    const code = buildLocked(log, force);
    if (code === 0 && snapshotTo && existsSync(builtIndex)) cpSync(builtDir, snapshotTo, { recursive: true });
    return code;
  });
}

function buildLocked(log, force) {
  const reason = force ? 'a build was asked for' : webBuildReason(); // another run may have built it meanwhile
  if (!reason) return 0;
  if (!existsSync(path.join(projectRoot, 'web', 'index.html'))) {
    log('[build] web/index.html not found: skipping the web build (the API still runs).');
    return 0;
  }
  const viteBin = path.join(
    path.dirname(createRequire(import.meta.url).resolve('vite/package.json')),
    'bin',
    'vite.js',
  );
  log(`[build] building the web app (${reason})...`);
  const started = Date.now();
  const result = spawnSync(process.execPath, [viteBin, 'build', '--logLevel', 'warn'], {
    cwd: projectRoot,
    stdio: 'inherit',
    // Vitest sets NODE_ENV=test, which would give a development build of React.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    log('[build] vite build failed.');
    return result.status ?? 1;
  }
  log(`[build] done in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return 0;
}
