// `npm start`: builds the web app when dist/web is missing or older than its sources, then runs the server in this
// process (tsx loads the TypeScript), so signals (SIGTERM drains requests, server/main.ts) and the exit code are the
// server's own.
import { register } from 'tsx/esm/api';
import { buildWebIfNeeded } from './web-build.mjs';

const code = buildWebIfNeeded();
if (code !== 0) process.exit(code);

register();
await import('../server/main.ts');
