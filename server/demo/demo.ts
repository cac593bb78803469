// `npm run demo`: fills an empty DATA_DIR (or DATABASE_URL) with the demo lab and prints the accounts.
import { loadConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { createStorage } from '#server/modules/files/storage.ts';

import { demoRefusal, seedDemo } from './demo-seed.ts';

const config = loadConfig();
const where = config.databaseUrl ? 'the PostgreSQL database in DATABASE_URL' : `DATA_DIR ${config.dataDir}`;
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  databaseOwnerUrl: config.databaseOwnerUrl,
  dataDir: config.dataDir,
});
let exitCode = 0;
try {
  const refusal = await demoRefusal(database.db);
  if (refusal) {
    console.log(`\n${refusal}`);
    console.log(`(${where})`);
    console.log('To see the demo, point DATA_DIR at a new folder, e.g.  DATA_DIR=./demo-data npm run demo\n');
    exitCode = 1;
  } else {
    const storage = createStorage(config);
    const started = Date.now();
    const { accounts, password, counts } = await seedDemo(database.db, storage).finally(() => storage.close());
    console.log(`\nDemo lab written to ${where} in ${((Date.now() - started) / 1000).toFixed(1)} s:`);
    console.log(
      `  ${Object.entries(counts)
        .map(([what, n]) => `${n} ${what}`)
        .join(', ')}.`,
    );
    console.log(`\nAccounts (every one has the password ${password}):\n`);
    const width = Math.max(...accounts.map((a) => a.email.length));
    for (const a of accounts) {
      const role = a.status === 'pending' ? `pending (asked for ${a.role})` : a.role;
      console.log(`  ${a.email.padEnd(width)}  ${role.padEnd(28)} ${a.name}${a.group ? `, ${a.group}` : ''}`);
    }
    console.log('\nStart the portal with `npm start` (same DATA_DIR) and sign in as any approved account above.');
    console.log(
      'To try the second factor (decision 064), start it with MFA_REQUIRED_ROLES=director (or the lab-wide\n' +
        'admin,director,associateDirector and MFA_FOR_CLEARED=true): a director is asked to set up an authenticator app\n' +
        'after the password, and for a code from it at every sign-in after that.\n',
    );
  }
} finally {
  await database.close();
}
process.exit(exitCode);
