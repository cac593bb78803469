import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding the portal's package.json. Files the server reads at run time (migrations, the built web app,
 * the text-extraction worker) are found from here, so the same code works from its sources (tsx, Vitest) and from the
 * compiled bundle `npm start` runs (dist/server/main.mjs, scripts/server-build.mjs).
 */
export const projectRoot = (() => {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'server'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`the portal's package.json was not found above ${start}`);
  }
})();
