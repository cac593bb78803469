import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase } from '#server/db/client.ts';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-scratch-'));
const database = await openDatabase({ dataDir });
const db = database.db;
await db.execute(sql`insert into groups (name) select 'Group ' || g from generate_series(1,12) g`);
await db.execute(sql`insert into users (email, password_hash, role, status, name, group_id)
 select 'staff' || g || '@lab.bench', 'x', 'employee', 'approved', (array['Asha','Ravi','Sunita','Vikram','Meera','Arjun','Kavita','Rahul','Priya','Anil','Deepa','Manoj'])[1 + g % 12] || ' ' || (array['Verma','Rao','Iyer','Singh','Nair','Gupta','Menon','Reddy','Das','Joshi','Kulkarni','Bose'])[1 + (g/12) % 12] || ' ' || g,
 (select id from groups order by name offset (g % 12) limit 1) from generate_series(0,4999) g`);
await db.execute(sql`insert into activity_logs (user_id, action, target_type, target_id, timestamp)
 select u.id, (array['Signed in','Updated own profile','Uploaded letter','Changed own profile photo','Added a group notice'])[1 + g % 5] || ' #' || g, 'user', u.id, now() - g * interval '315 second'
 from generate_series(1,100000) g join (select id, row_number() over (order by email) n from users) u on u.n = 1 + g % 5000`);
await db.execute(sql`analyze`);
const run = async (label: string, q: string) => {
  const times: number[] = [];
  for (let i = 0; i < 6; i++) { const t = performance.now(); await db.execute(sql.raw(q)); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(label.padEnd(40), times.map((t) => t.toFixed(0)).join(' '));
  if (process.argv.includes('--plan')) {
    const r = await db.execute(sql.raw(`explain analyze ${q}`));
    const rows = (r as unknown as { rows: Record<string, string>[] }).rows ?? (r as unknown as Record<string, string>[]);
    console.log(rows.map((x) => Object.values(x)[0]).join('\n'));
  }
};
const users = (p: string) => `select id from users where name ilike '${p}' or email ilike '${p}'`;
for (const p of ['%kavita%', '%staff42@%', '%photo%', '%zzqx%', '%rao%']) {
  const r = await db.execute(sql.raw(users(p)));
  const ids = ((r as unknown as { rows: { id: string }[] }).rows).map((x) => `'${x.id}'`);
  const arr = ids.length ? `array[${ids.join(',')}]::uuid[]` : `array[]::uuid[]`;
  const label = p.replace(/%/g, '');
  console.log(label, 'matching users', ids.length);
  await run(`ARR page ${label}`, `select l.id from activity_logs l left join users u on u.id = l.user_id where (l.action ilike '${p}' or l.user_id = any(${arr})) order by l.timestamp desc, l.id desc limit 20`);
  await run(`ARR count ${label}`, `select count(*) from activity_logs l where (l.action ilike '${p}' or l.user_id = any(${arr}))`);
  await run(`ARR capcount ${label}`, `select count(*) from (select 1 from activity_logs l where (l.action ilike '${p}' or l.user_id = any(${arr})) limit 1001) t`);
  await run(`ARR capcount-ord ${label}`, `select count(*) from (select 1 from activity_logs l where (l.action ilike '${p}' or l.user_id = any(${arr})) order by l.timestamp desc limit 1001) t`);
  await run(`ARR page ts-only ${label}`, `select l.id from activity_logs l left join users u on u.id = l.user_id where (l.action ilike '${p}' or l.user_id = any(${arr})) order by l.timestamp desc limit 20`);
}
await run('first page', `select l.id from activity_logs l left join users u on u.id = l.user_id order by l.timestamp desc, l.id desc limit 20`);
await run('count all', `select count(*) from activity_logs`);
await run('dir first page', `select u.id from users u left join groups g on g.id = u.group_id where u.status='approved' order by u.name, u.id limit 20`);
await run('dir count', `select count(*) from users u where u.status='approved'`);
await run('dir search', `select u.id, count(*) over () from users u left join groups g on g.id = u.group_id where u.status='approved' and (u.name ilike '%meera%' or u.email ilike '%meera%') order by u.name, u.id limit 20`);
await database.close();
