import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildTestApp, databaseOwnerUrl } from '#server/test/app.ts';

import { migrateDatabase } from './client.ts';
import { applyOnlineMigrations, MIGRATION_LOCK_TIMEOUT_MS } from './online-migrations.ts';

/**
 * Decision 130: a migration never stops the readers of a large table for more than a second. A million letters, read
 * and written all the while by another connection, timed one statement at a time.
 */
const LETTERS = 1_000_000;

let owner: pg.Pool;

/** Reads a page of the register and writes one letter, again and again, until stopped: the longest statement's ms. */
function keepReading(pool: pg.Pool) {
  let stop = false;
  let longest = 0;
  let statements = 0;
  const running = (async () => {
    const client = await pool.connect();
    try {
      while (!stop) {
        const one = `L-OM-${1 + Math.floor(Math.random() * LETTERS)}`;
        for (const [sql, values] of [
          [`select id, letter_sub from letters order by letter_upload_date desc, id desc limit 20`, []],
          [`update letters set letter_sub = letter_sub where letter_id = $1`, [one]],
        ] as const) {
          const started = performance.now();
          await client.query(sql, [...values]);
          longest = Math.max(longest, performance.now() - started);
          statements++;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      client.release();
    }
  })();
  return {
    async stop() {
      stop = true;
      await running;
      return { longest, statements };
    },
  };
}

beforeAll(async () => {
  const app = await buildTestApp();
  owner = new pg.Pool({ connectionString: databaseOwnerUrl(app), max: 4 });
  // The letters as a COPY or a restore would write them: the search's triggers off (searchText stays empty).
  const client = await owner.connect();
  try {
    await client.query(`set session_replication_role = replica`);
    await client.query(
      `insert into letters (letter_id, letter_sub, letter_no, letter_date, docket_no, docket_date, category,
                            establishment, letter_language, letter_commun_by, letter_upload_date)
       select 'L-OM-' || n, 'Subject ' || n, 'No ' || n, date '2016-01-01' + (n % 3650), 'D-' || n,
              date '2016-01-01' + (n % 3650), (array['Fire', 'Explosives', 'Environment'])[1 + n % 3],
              'Establishment ' || (n % 40), 'English', 'Post', timestamptz '2016-01-01' + n * interval '5 minutes'
         from generate_series(1, ${LETTERS}) n`,
    );
    await client.query(`reset session_replication_role`);
    await client.query('analyze letters');
  } finally {
    client.release();
  }
}, 300_000);

afterAll(async () => {
  await owner?.end();
});

describe('online migrations (decision 130)', () => {
  it('builds an index on a million letters while they are read and written, none waiting over a second', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lp-online-'));
    writeFileSync(
      path.join(folder, '0001_letters_by_date_and_category.sql'),
      'create index concurrently if not exists letters_om_date_category_idx on letters (letter_date, category);\n',
    );
    const reader = keepReading(owner);
    const client = await owner.connect();
    let applied: string[];
    try {
      applied = await applyOnlineMigrations(client, { folder });
    } finally {
      client.release();
    }
    const { longest, statements } = await reader.stop();
    expect(applied).toEqual(['0001_letters_by_date_and_category.sql']);
    expect(statements).toBeGreaterThan(10);
    expect(longest).toBeLessThan(1000);
    const { rows } = await owner.query(
      `select i.indisvalid from pg_index i join pg_class c on c.oid = i.indexrelid
        where c.relname = 'letters_om_date_category_idx'`,
    );
    expect(rows).toEqual([{ indisvalid: true }]);
    // Applied once: the next start does nothing.
    const again = await owner.connect();
    try {
      expect(await applyOnlineMigrations(again, { folder })).toEqual([]);
    } finally {
      again.release();
    }
  }, 300_000);

  it('builds again an index that a stopped build left invalid', async () => {
    await owner.query(`create index letters_om_invalid_idx on letters (docket_no)`);
    // As a cancelled `create index concurrently` leaves it.
    await owner.query(`update pg_index set indisvalid = false where indexrelid = 'letters_om_invalid_idx'::regclass`);
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lp-online-'));
    writeFileSync(
      path.join(folder, '0001_docket.sql'),
      'create index concurrently if not exists letters_om_invalid_idx on letters (docket_no)',
    );
    const client = await owner.connect();
    try {
      await applyOnlineMigrations(client, { folder });
    } finally {
      client.release();
    }
    const { rows } = await owner.query(
      `select i.indisvalid from pg_index i where i.indexrelid = 'letters_om_invalid_idx'::regclass`,
    );
    expect(rows).toEqual([{ indisvalid: true }]);
  }, 300_000);

  it('lets the readers go when an alter table of letters cannot have its lock, and applies it once it can', async () => {
    // A Drizzle migration of its own, after every real one.
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lp-drizzle-'));
    mkdirSync(path.join(folder, 'meta'));
    writeFileSync(path.join(folder, '0000_letters_column.sql'), 'alter table letters add column om_note text;');
    writeFileSync(
      path.join(folder, 'meta', '_journal.json'),
      JSON.stringify({
        version: '7',
        dialect: 'postgresql',
        entries: [{ idx: 0, version: '7', when: 4102444800000, tag: '0000_letters_column', breakpoints: true }],
      }),
    );
    // A long report holds letters (a read lock) for 4 s: the alter table's lock cannot come before it ends.
    const report = await owner.connect();
    await report.query('begin');
    await report.query('select count(*) from letters');
    const logged: string[] = [];
    const reader = keepReading(owner);
    const reportEnds = report.query('select pg_sleep(4); commit');
    const migrating = migrateDatabase(owner, (m) => logged.push(m), { drizzle: folder });
    await reportEnds;
    report.release();
    await migrating;
    const { longest, statements } = await reader.stop();
    expect(logged.some((m) => m.startsWith('a migration waited over'))).toBe(true);
    expect(statements).toBeGreaterThan(10);
    expect(longest).toBeLessThan(MIGRATION_LOCK_TIMEOUT_MS + 200);
    const { rows } = await owner.query(
      `select column_name from information_schema.columns where table_name = 'letters' and column_name = 'om_note'`,
    );
    expect(rows).toHaveLength(1);
  }, 300_000);
});
