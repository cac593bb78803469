import { rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { EmbeddedDatabaseError } from './db/embedded.ts';
import { checkSandbox } from './lib/sandbox.ts';
import { prepareNodeParsers } from './lib/sandbox-node.ts';
import { ensureAdmin } from './modules/auth/bootstrap.ts';
import { checkJwtSecret, JwtSecretMismatchError } from './modules/auth/jwt-secret.ts';
import { sweepStorage } from './modules/files/sweep.ts';

// The only file that opens a port.

/** A start-up failure the operator can fix: one clear message, a non-zero exit, nothing overwritten. */
function refuse(message: string): never {
  console.error(`Lab Portal cannot start: ${message}`);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) refuse(err.message);
  throw err;
}

let database: Database;
try {
  database = await openDatabase({
    databaseUrl: config.databaseUrl,
    databaseOwnerUrl: config.databaseOwnerUrl,
    dataDir: config.dataDir,
    log: (msg) => console.log(msg),
    onPoolError: (err) => console.error(`database connection lost: ${err.message}`),
  });
} catch (err) {
  if (err instanceof DataDirLockedError || err instanceof EmbeddedDatabaseError) {
    // A first start that cannot open its database leaves DATA_DIR as it found it (decision 040): the generated
    // JWT secret and a DATA_DIR made for it go again (a folder only when empty).
    for (const made of [...config.createdAtLoad].reverse()) {
      if (made !== config.dataDir && !config.dataDir.startsWith(made + path.sep)) {
        rmSync(made, { force: true });
        continue;
      }
      // DATA_DIR and the parents made for it, from the inside out, each only while empty.
      for (let dir = config.dataDir; ; dir = path.dirname(dir)) {
        try {
          rmdirSync(dir);
        } catch {
          break;
        }
        if (dir === made) break;
      }
    }
    refuse(err.message);
  }
  throw err;
}

// Nodes sharing a database must share the JWT secret (decision 052): refuse one whose secret differs.
if (database.kind === 'postgres') {
  try {
    const outcome = await checkJwtSecret(database.db, config.jwtSecret, { rotate: config.jwtSecretRotate });
    if (outcome === 'rotated') console.log('JWT_SECRET_ROTATE: this JWT secret is now the one every node must use.');
  } catch (err) {
    await database.close();
    if (err instanceof JwtSecretMismatchError) refuse(err.message);
    throw err;
  }
}

const app = await buildApp({ config, database, backgroundJobs: true });
// Every parser of an uploaded file runs in bubblewrap (decision 091): without it, one warning, and no Office previews.
await checkSandbox(config.sandbox.bwrap, app.log);
// The first PDF's or image's parser process is started now, ahead of need (decision 108).
prepareNodeParsers(config.sandbox.bwrap, { cpuSeconds: config.sandbox.cpuSeconds, memoryMb: config.sandbox.memoryMb });
// A promise rejected with nobody to catch it is logged and the portal goes on (decision 092): every request and job
// has its own error path, so such a rejection is a call left unawaited (pg-boss 10 left its job outcomes so), not a
// state the process cannot trust. An uncaught exception still ends the process (Node's default; a supervisor
// restarts it).
process.on('unhandledRejection', (reason) => {
  app.log.error({ err: reason }, 'a promise was rejected with nothing to handle it; the portal goes on');
});
await ensureAdmin(database.db, config, app.log);
// Files that no row references (a crash between writing and committing) go before the first request; with a shared
// database other nodes may be mid-upload, so only files older than the grace period go.
await sweepStorage(app, { graceMs: database.kind === 'embedded' ? 0 : 60 * 60 * 1000 });
try {
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  await app.close().catch(() => {});
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    refuse(`port ${config.port} on ${config.host} is already in use. Stop what uses it, or set PORT.`);
  if (code === 'EACCES') refuse(`this user may not listen on port ${config.port}. Set PORT to 1024 or above.`);
  throw err;
}

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    const began = Date.now();
    app.log.info({ signal }, 'draining requests and closing the database');
    // Above the sum of the bounded steps (drain 20 s, jobs 10 s, pool 5 s, PostgreSQL's fast then immediate stop 25 s).
    const force = setTimeout(() => {
      app.log.error({ ms: Date.now() - began }, 'shutdown took too long; exiting without finishing it');
      process.exit(1);
    }, 70_000);
    force.unref();
    // A connection still open 20 s into the drain (a client that never finishes its request) is closed, so the
    // database still gets its clean stop before the force exit.
    const cut = setTimeout(() => {
      app.log.warn('requests still open after 20 s; closing their connections');
      app.server.closeAllConnections();
    }, 20_000);
    cut.unref();
    // app.close() stops accepting, waits for in-flight requests, then runs onClose (database close, which stops the
    // embedded PostgreSQL after the pool has ended).
    app.close().then(
      () => {
        app.log.info({ ms: Date.now() - began }, 'stopped');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
