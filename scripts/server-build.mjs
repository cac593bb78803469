// The compiled server (dist/server/main.mjs) and when it must be rebuilt. `npm start`, the e2e servers and the
// benchmarks run it: one esbuild bundle of server/ and shared/ (packages stay in node_modules) loads in a fraction of
// the memory that compiling the TypeScript at start with tsx takes (decision 024). Vitest and `npm run dev` keep
// running the sources.
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';

import { buildSync } from 'esbuild';

import { newestMtime, projectRoot, withBuildLock } from './web-build.mjs';

export const serverEntry = path.join(projectRoot, 'dist', 'server', 'main.mjs');

/** What the bundle is made from: a change to any of these rebuilds it. */
const SOURCES = ['server', 'shared', 'package-lock.json', 'tsconfig.json', 'scripts/server-build.mjs'];

/** Why the server must be (re)built, or null when dist/server/main.mjs is up to date. */
export function serverBuildReason() {
  if (!existsSync(serverEntry)) return 'dist/server/main.mjs is missing';
  const built = statSync(serverEntry).mtimeMs;
  const newest = Math.max(...SOURCES.map((s) => newestMtime(path.join(projectRoot, s))));
  return newest > built ? 'the server sources changed since the last build' : null;
}

/**
 * Bundles server/main.ts when needed (about half a second) and returns the bundle's path. The bundle is written
 * beside its final name and renamed over it, so a server starting meanwhile reads the old one or the new one whole.
 */
export function buildServerIfNeeded({ log = (line) => console.log(line) } = {}) {
  if (!serverBuildReason()) return serverEntry;
  return withBuildLock(() => {
    const reason = serverBuildReason(); // another process may have built it meanwhile
    if (!reason) return serverEntry;
    log(`[build] compiling the server (${reason})...`);
    const started = Date.now();
    mkdirSync(path.dirname(serverEntry), { recursive: true });
    const temporary = `${serverEntry}.${process.pid}.tmp`;
    buildSync({
      entryPoints: [path.join(projectRoot, 'server', 'main.ts')],
      outfile: temporary,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'linked',
      legalComments: 'none',
      logLevel: 'warning',
    });
    renameSync(`${temporary}.map`, `${serverEntry}.map`);
    renameSync(temporary, serverEntry);
    log(`[build] server compiled in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return serverEntry;
  });
}
