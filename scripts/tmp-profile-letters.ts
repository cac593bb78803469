import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase } from '#server/db/client.ts';
import { searchLetterIds } from '#server/modules/letters/letters.search.ts';
import { searchLetters } from '#server/modules/letters/letters.service.ts';
const database = await openDatabase({ dataDir: path.join(os.tmpdir(), 'lp-bench-letters-p100k') });
const { db } = database;
const [d] = (await db.execute(sql`select id from users where email='director@bench.local'`) as unknown as { rows: { id: string }[] }).rows;
const actor = { id: d!.id, email: '', name: '', role: 'director' as const, groupId: null, labId: null };
const time = async (label: string, f: () => Promise<unknown>) => {
  for (let i = 0; i < 5; i++) await f();
  const t: number[] = [];
  for (let i = 0; i < 30; i++) { const s = performance.now(); await f(); t.push(performance.now() - s); }
  t.sort((a, b) => a - b);
  console.log(label.padEnd(40), 'p50', t[15]!.toFixed(2), 'min', t[0]!.toFixed(2));
};
await time('select 1', () => db.execute(sql`select 1`));
for (const q of ['', 'procurement', 'zirconium', 'xylophone quartet', 'ravi saxena']) {
  await time(`ids ${q}`, () => searchLetterIds(db, actor, { q, limit: 20 }));
  await time(`full ${q}`, () => searchLetters(db, actor, { q, limit: 20 }));
}
const ids = (await searchLetterIds(db, actor, { q: '', limit: 20 })).ids;
const list = sql.join(ids.map((i) => sql`${i}::uuid`), sql`, `);
await time('join (as loadViews, raw)', () => db.execute(sql`select l.id, l.letter_id, l.letter_sub, l.letter_no, l.letter_date, l.docket_no, l.docket_date, l.category, l.establishment, l.letter_language, l.letter_commun_by, l.letter_upload_date, l.classification, l.file_id, l.uploaded_by, l.deleted_at, l.deleted_by, l.updated_at, u.id, u.name, d.id, d.name, f.original_name from letters l left join users u on u.id = l.uploaded_by left join users d on d.id = l.deleted_by left join files f on f.id = l.file_id where l.id in (${list})`));
await time('no join', () => db.execute(sql`select l.id, l.letter_id, l.letter_sub, l.letter_no, l.letter_date, l.docket_no, l.docket_date, l.category, l.establishment, l.letter_language, l.letter_commun_by, l.letter_upload_date, l.classification, l.file_id, l.uploaded_by, l.deleted_at, l.deleted_by, l.updated_at from letters l where l.id in (${list})`));
await time('subqueries', () => db.execute(sql`select l.id, l.letter_id, l.letter_sub, l.letter_no, l.letter_date, l.docket_no, l.docket_date, l.category, l.establishment, l.letter_language, l.letter_commun_by, l.letter_upload_date, l.classification, l.file_id, l.uploaded_by, l.deleted_at, l.deleted_by, l.updated_at, (select name from users u where u.id = l.uploaded_by), (select name from users u where u.id = l.deleted_by), (select original_name from files f where f.id = l.file_id) from letters l where l.id = any(${'{' + ids.join(',') + '}'}::uuid[])`));
await time('any array, no join', () => db.execute(sql`select l.id from letters l where l.id = any(${'{' + ids.join(',') + '}'}::uuid[])`));
await database.close();
