// The auditor's sqlmap run (docs/security-audit.md "sqlmap"): starts the real server (dist/server/main.mjs) on a
// temporary DATA_DIR with an approved admin, signs in, and prints one JSON line with the address and the token for
// sqlmap's `--header "Authorization: Bearer …"`. Runs until stopped (Ctrl-C); then removes the folder.
// `node --import tsx scripts/sqlmap-target.ts`
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openDatabase } from '#server/db/client.ts';
import { labs, users } from '#server/db/schema/index.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { killServer, login, startServer, waitHealthy } from '#server/test/server-process.ts';

const PASSWORD = 'sqlmap-password';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-sqlmap-'));
// Seeded before the server opens the database (the embedded one has one owner at a time).
const database = await openDatabase({ dataDir });
const [lab] = await database.db.insert(labs).values({ name: 'Audit Lab' }).returning();
await database.db.insert(users).values({
  email: 'auditor@lab.test',
  passwordHash: await hashPassword(PASSWORD),
  role: 'admin',
  status: 'approved',
  name: 'Audit Admin',
  labId: lab!.id,
});
await database.close();
// sqlmap sends thousands of wrong sign-ins: the throttle would answer 429 and hide what the query does.
const server = startServer({
  DATA_DIR: dataDir,
  LOGIN_ADDRESS_FAILURES: '1000000',
  LOGIN_ACCOUNT_FAILURES: '1000000',
});
const base = await waitHealthy(server);
const { token } = (await (await login(base, 'auditor@lab.test', PASSWORD)).json()) as { token: string };
console.log(JSON.stringify({ base, token, email: 'auditor@lab.test', password: PASSWORD }));
const stop = async () => {
  await killServer(server);
  rmSync(server.dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
