import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { buildApp } from './app.ts';
import { ensureAdmin } from './modules/auth/bootstrap.ts';

// The only file that opens a port.
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const app = await buildApp({ config, database });
await ensureAdmin(database.db, config, app.log);
await app.listen({ port: config.port, host: config.host });

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'draining requests and closing the database');
    const force = setTimeout(() => process.exit(1), 15000);
    force.unref();
    // app.close() stops accepting, waits for in-flight requests, then runs onClose (database close).
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
