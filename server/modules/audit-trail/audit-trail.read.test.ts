import { randomUUID } from 'node:crypto';

import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import { todayInIndia } from '#shared/format.ts';
import type { AuditEventJson, AuditEventPageJson } from '#shared/schemas/audit.ts';

import { auditEvents, type UserRow } from '#server/db/schema/index.ts';
import { asDatabaseOwner, buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';

import { istTimestamp } from './audit-trail.service.ts';
import { recordAudit } from './audit-trail.ts';

// Reading the audit trail (decision 069): GET /api/audit/events and its CSV. One app for the file; each
// test makes its own people and events and filters by them, as other tests' events share the table.
let app: FastifyInstance;
let admin: UserRow;
let director: UserRow;
beforeAll(async () => {
  app = await buildTestApp();
  admin = await createUser(app, 'admin', { name: `Audit Admin ${randomUUID().slice(0, 6)}` });
  director = await createUser(app, 'director');
});

const get = async (user: UserRow | null, url: string) =>
  app.inject({ method: 'GET', url, headers: user ? await authHeaders(app, user) : {} });
const page = async (user: UserRow, query: string) => {
  const res = await get(user, `/api/audit/events?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuditEventPageJson>();
};
const tag = () => randomUUID().slice(0, 8);

/** `n` events of `person` in one statement (the insert trigger chains each row). */
const bulkEvents = (person: UserRow, n: number, action: string) =>
  app.db.execute(sql`
    insert into audit_events (seq, prev_hash, hash, occurred_at, actor_id, actor_name, actor_role, action, outcome)
    select 0, '', '', now(), ${person.id}, ${person.name}, ${person.role}, ${action}, 'success'
    from generate_series(1, ${n})`);

/** A person with a few events of their own: two sign-ins, a failed one, a Secret letter read and a refusal. */
async function personWithEvents() {
  const t = tag();
  const person = await createUser(app, 'employee', { name: `Trail Person ${t}`, email: `trail-${t}@lab.test` });
  const who = { actor: person, address: '10.1.2.3', userAgent: 'Firefox test' };
  const letter = { type: 'letter', id: randomUUID(), label: `Explosives storage ${t}` };
  const written = [
    await recordAudit(app.db, who, { action: 'sign_in', outcome: 'success', details: { method: 'password' } }),
    await recordAudit(app.db, who, {
      action: 'letter_viewed',
      object: letter,
      classification: 'Secret',
      outcome: 'success',
    }),
    await recordAudit(app.db, who, {
      action: 'access_refused',
      object: letter,
      classification: 'Secret',
      outcome: 'refused',
      details: { code: 'letters.not_cleared' },
    }),
    await recordAudit(app.db, who, { action: 'sign_in_failed', outcome: 'failure', details: { login: person.email } }),
    await recordAudit(app.db, who, { action: 'sign_in', outcome: 'success', details: { method: 'password' } }),
  ];
  return { person, letter, written, t };
}

describe('GET /api/audit/events: who may read', () => {
  it('refuses a visitor with 401', async () => {
    for (const url of ['/api/audit/events', '/api/audit/events.csv']) {
      const res = await get(null, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().code).toBe('auth.sign_in_required');
    }
  });

  it('refuses an employee and an associate director with 403 audit.read_forbidden', async () => {
    for (const role of ['employee', 'associate_director'] as const) {
      const user = await createUser(app, role);
      for (const url of ['/api/audit/events', '/api/audit/events.csv']) {
        const res = await get(user, url);
        expect(res.statusCode, `${role} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({
          code: 'audit.read_forbidden',
          message: 'Only directors and administrators can read the audit trail.',
        });
      }
    }
  });

  it('lets a director read (read-only) and an admin read', async () => {
    const { person } = await personWithEvents();
    for (const reader of [director, admin]) {
      const body = await page(reader, `person=${person.id}`);
      expect(body.items).toHaveLength(5);
      const csv = await get(reader, `/api/audit/events.csv?person=${person.id}`);
      expect(csv.statusCode).toBe(200);
    }
  });
});

describe('GET /api/audit/events: the events', () => {
  it('answers the rows as written, newest first, with the paging headers', async () => {
    const { person, letter, written } = await personWithEvents();
    const res = await get(admin, `/api/audit/events?person=${person.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<AuditEventPageJson>();
    expect(body).toMatchObject({ total: 5, capped: false });
    expect(body.items.map((e) => e.seq)).toEqual(written.map((w) => w.seq).reverse());
    expect(res.headers['x-total-count']).toBe('5');
    expect(res.headers.link).toBeUndefined();
    const viewed = body.items.find((e) => e.action === 'letter_viewed')!;
    expect(viewed).toEqual<AuditEventJson>({
      _id: written[1]!.id,
      seq: written[1]!.seq,
      occurredAt: written[1]!.occurredAt.toISOString(),
      actor: { _id: person.id, name: person.name, role: 'employee' },
      address: '10.1.2.3',
      userAgent: 'Firefox test',
      action: 'letter_viewed',
      object: letter,
      classification: 'Secret',
      outcome: 'success',
      details: null,
    });
    expect(body.items.find((e) => e.action === 'access_refused')!.details).toEqual({ code: 'letters.not_cleared' });
  });

  it('filters by person (id, or text of a name or email), object (id or label), action, classification, outcome', async () => {
    const { person, letter, t } = await personWithEvents();
    const other = await personWithEvents();
    const actions = (b: AuditEventPageJson) => b.items.map((e) => e.action);
    expect((await page(admin, `person=${person.id}`)).total).toBe(5);
    expect((await page(admin, `person=${person.id.toUpperCase()}`)).total).toBe(5);
    expect((await page(admin, `person=${encodeURIComponent(`trail person ${t}`)}`)).total).toBe(5);
    expect((await page(admin, `person=trail-${t}%40lab`)).total).toBe(5);
    expect((await page(admin, `person=nobody-${t}`)).total).toBe(0);
    expect(actions(await page(admin, `object=${letter.id}`))).toEqual(['access_refused', 'letter_viewed']);
    expect(actions(await page(admin, `object=${encodeURIComponent(`storage ${t}`)}`))).toEqual([
      'access_refused',
      'letter_viewed',
    ]);
    expect(actions(await page(admin, `person=${person.id}&action=sign_in`))).toEqual(['sign_in', 'sign_in']);
    expect(actions(await page(admin, `person=${person.id}&classification=Secret&outcome=refused`))).toEqual([
      'access_refused',
    ]);
    expect(actions(await page(admin, `person=${person.id}&outcome=failure`))).toEqual(['sign_in_failed']);
    // Blank filters are no filters (a cleared box sends `?action=`).
    expect(
      (await page(admin, `person=${other.person.id}&action=&object=&outcome=&classification=&from=&to=`)).total,
    ).toBe(5);
  });

  it('filters by days in India time, both ends included', async () => {
    const { person } = await personWithEvents();
    const today = todayInIndia();
    const day = (offset: number) =>
      new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    expect((await page(admin, `person=${person.id}&from=${today}&to=${today}`)).total).toBe(5);
    expect((await page(admin, `person=${person.id}&from=${day(-3)}&to=${day(-1)}`)).total).toBe(0);
    expect((await page(admin, `person=${person.id}&from=${day(1)}`)).total).toBe(0);
    expect((await page(admin, `person=${person.id}&to=${day(-1)}`)).total).toBe(0);
  });

  it('pages on the server: limit and offset, a Link to the next page, the total counted only when needed', async () => {
    const { person, written } = await personWithEvents();
    const first = await get(admin, `/api/audit/events?person=${person.id}&limit=2`);
    expect(first.json<AuditEventPageJson>()).toMatchObject({ total: 5, capped: false });
    expect(first.json<AuditEventPageJson>().items.map((e) => e.seq)).toEqual([written[4]!.seq, written[3]!.seq]);
    expect(first.headers.link).toBe(`</api/audit/events?person=${person.id}&limit=2&offset=2>; rel="next"`);
    const last = await get(admin, `/api/audit/events?person=${person.id}&limit=2&offset=4`);
    expect(last.json<AuditEventPageJson>().items.map((e) => e.seq)).toEqual([written[0]!.seq]);
    expect(last.json<AuditEventPageJson>().total).toBe(5);
    expect(last.headers.link).toBeUndefined();
  });

  it('counts a broad filter up to 1,000 and says it is capped', async () => {
    const { person } = await personWithEvents();
    await bulkEvents(person, 1001, 'sign_in');
    const body = await page(admin, `person=${person.id}&limit=10`);
    expect(body).toMatchObject({ total: 1000, capped: true });
    expect(body.items).toHaveLength(10);
  });

  it('records each read as audit_read, with the filters, under the reader and their role', async () => {
    const reader = await createUser(app, 'director');
    const { person } = await personWithEvents();
    await page(reader, `person=${person.id}&action=sign_in&limit=3`);
    const [read] = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, reader.id), eq(auditEvents.action, 'audit_read')));
    expect(read).toMatchObject({
      actorName: reader.name,
      actorRole: 'director',
      objectType: 'audit_trail',
      outcome: 'success',
      clientAddress: '127.0.0.1',
    });
    expect(JSON.parse(read!.details!)).toEqual({
      filters: { person: person.id, action: 'sign_in' },
      offset: 0,
      limit: 3,
      returned: 2,
    });
    // The reader's own read is an event the trail shows.
    expect((await page(admin, `person=${reader.id}&action=audit_read`)).total).toBe(1);
  });
});

describe('GET /api/audit/events: validation', () => {
  it.each([
    ['action=opened', 'action', 'audit.action_invalid', 'Please choose an action from the list.'],
    [
      'classification=Top',
      'classification',
      'audit.classification_invalid',
      'Please choose a classification from the list.',
    ],
    ['outcome=maybe', 'outcome', 'audit.outcome_invalid', 'Please choose an outcome from the list.'],
    ['from=2026-03-05&to=2026-03-01', 'from', 'audit.dates_reversed', 'The From date cannot be after the To date.'],
    [`person=${'x'.repeat(201)}`, 'person', 'audit.filter_too_long', 'A filter can be at most 200 characters long.'],
    [`object=${'x'.repeat(201)}`, 'object', 'audit.filter_too_long', 'A filter can be at most 200 characters long.'],
    ['from=2026-02-30', 'from', 'common.date_invalid', undefined],
    ['to=yesterday', 'to', 'common.date_invalid', undefined],
  ])('refuses %s with 400 on %s', async (query, field, code, message) => {
    for (const url of [`/api/audit/events?${query}`, `/api/audit/events.csv?${query}`]) {
      const res = await get(admin, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code, field, ...(message ? { message } : {}) });
    }
  });

  it('refuses a page size over 100 and a negative offset', async () => {
    expect((await get(admin, '/api/audit/events?limit=101')).statusCode).toBe(400);
    expect((await get(admin, '/api/audit/events?offset=-1')).statusCode).toBe(400);
  });
});

describe('GET /api/audit/events.csv', () => {
  it('streams every matching event with a header, IST times and the hash, and records the export', async () => {
    const reader = await createUser(app, 'admin');
    const { person, written } = await personWithEvents();
    const res = await get(reader, `/api/audit/events.csv?person=${person.id}&outcome=success`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-trail-\d{4}-\d\d-\d\d\.csv"$/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Seq,Event ID,Time (IST),Person,Person ID,Role,Action,Object type,Object ID,Object,Classification,Outcome,' +
        'Address,Browser,Details,Hash',
    );
    expect(lines).toHaveLength(4);
    const [hashed] = await app.db.select().from(auditEvents).where(eq(auditEvents.seq, written[4]!.seq));
    expect(lines[1]).toBe(
      [
        written[4]!.seq,
        written[4]!.id,
        istTimestamp(written[4]!.occurredAt),
        person.name,
        person.id,
        'employee',
        'sign_in',
        '',
        '',
        '',
        '',
        'success',
        '10.1.2.3',
        'Firefox test',
        '"{""method"":""password""}"',
        hashed!.hash,
      ].join(','),
    );
    expect(lines[1]).toMatch(/,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+05:30,/);
    expect(lines.slice(1).map((l) => l.split(',')[6])).toEqual(['sign_in', 'letter_viewed', 'sign_in']);
    const [exported] = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, reader.id), eq(auditEvents.action, 'audit_exported')));
    expect(JSON.parse(exported!.details!)).toEqual({
      filters: { person: person.id, outcome: 'success' },
      max: 100_000,
    });
  });

  it('walks every batch of a long export, in the chain order', async () => {
    const { person } = await personWithEvents();
    await bulkEvents(person, 1500, 'exported');
    const res = await get(admin, `/api/audit/events.csv?person=${person.id}`);
    const seqs = res.body
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((l) => Number(l.split(',')[0]));
    expect(seqs).toHaveLength(1505);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
  });

  it('times are IST: 21:15 in India is 15:45 UTC', () => {
    expect(istTimestamp(new Date('2026-11-27T15:45:02.123Z'))).toBe('2026-11-27T21:15:02.123+05:30');
  });
});

describe('a read that cannot be recorded', () => {
  it('is not served: 503 audit.unavailable, and no rows leave', async () => {
    const reader = await createUser(app, 'admin');
    const { person } = await personWithEvents();
    // The database refuses this reader's audit rows (as a revoked insert permission would); only its owner may alter
    // the audit trail's table (decision 093).
    const check = `audit_no_reads_${reader.id.slice(0, 8)}`;
    await asDatabaseOwner(app).execute(
      sql.raw(`alter table audit_events add constraint ${check} check (actor_id <> '${reader.id}') not valid`),
    );
    try {
      for (const url of [`/api/audit/events?person=${person.id}`, `/api/audit/events.csv?person=${person.id}`]) {
        const res = await get(reader, url);
        expect(res.statusCode, url).toBe(503);
        expect(res.json().code).toBe('audit.unavailable');
        expect(res.body).not.toContain(person.name);
      }
    } finally {
      await asDatabaseOwner(app).execute(sql.raw(`alter table audit_events drop constraint ${check}`));
    }
  });
});
