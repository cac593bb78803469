// `npm start`: builds the web app when dist/web is missing or older than its sources, compiles the server when
// dist/server/main.mjs is (scripts/server-build.mjs), then runs the server in this process, so signals (SIGTERM
// drains requests, server/main.ts) and the exit code are the server's own.
import { pathToFileURL } from 'node:url';

import { buildServerIfNeeded } from './server-build.mjs';
import { buildWebIfNeeded } from './web-build.mjs';

const code = buildWebIfNeeded();
if (code !== 0) process.exit(code);

// Stack traces name the TypeScript sources (dist/server/main.mjs.map, read only when a stack is printed).
process.setSourceMapsEnabled(true);
await import(pathToFileURL(buildServerIfNeeded()).href);
