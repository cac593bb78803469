import { execFileSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';

import { count, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { files, letterCounters, letterMovements, letters, users } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';

import { DEMO_PASSWORD, demoRefusal, seedDemo } from './demo-seed.ts';

buildTestAppBeforeAll();

// The demo draws about a hundred and fifty files; on a busy two-core machine that takes a while.
describe('npm run demo (seedDemo)', { timeout: 120_000 }, () => {
  it('fills a portal that has only the bootstrap administrator, with real files and working accounts', async () => {
    const app = await buildTestApp();
    await createUser(app, 'admin'); // the administrator a first start creates
    expect(await demoRefusal(app.db)).toBeNull();

    const summary = await seedDemo(app.db, app.storage, { today: new Date('2026-11-21T10:00:00Z') });

    const approved = summary.accounts.filter((a) => a.status === 'approved');
    expect(approved.length).toBeGreaterThanOrEqual(24);
    for (const role of ['admin', 'director', 'associate_director', 'employee']) {
      expect(approved.some((a) => a.role === role)).toBe(true);
    }
    expect(summary.accounts.filter((a) => a.status === 'pending').length).toBeGreaterThanOrEqual(2);
    expect(summary.counts.letters).toBeGreaterThanOrEqual(30);

    // e-Files in every state (decision 121): with an officer, in transit, parked, closed, a classified one, a letter put
    // in, yellow (draft) and green (permanent) notes.
    const state = (
      await app.db.execute<Record<string, number>>(sql`select
        count(*) filter (where e.state = 'open' and not exists (select 1 from efile_movements m where m.efile_id = e.id
          and m.kind = 'sent' and m.received_at is null and m.pulled_back_at is null))::int as with_officer,
        count(*) filter (where exists (select 1 from efile_movements m where m.efile_id = e.id
          and m.kind = 'sent' and m.received_at is null and m.pulled_back_at is null))::int as in_transit,
        count(*) filter (where e.state = 'parked')::int as parked,
        count(*) filter (where e.state = 'closed')::int as closed,
        count(*) filter (where e.classification <> 'Unclassified')::int as classified,
        (select count(*)::int from efile_items where letter_id is not null) as letters_in,
        (select count(*)::int from efile_notes where not permanent) as yellow,
        (select count(*)::int from efile_notes where permanent) as green,
        (select count(*)::int from efile_note_versions) as edits
        from efiles e`)
    ).rows[0]!;
    for (const [what, n] of Object.entries(state)) expect([what, n > 0]).toEqual([what, true]);
    // The e-files seed's six (one per state), the draft's file and the dispatched letter's file: as many as the table holds.
    expect(summary.counts.efiles).toBe(8);
    expect((await app.db.execute<{ n: number }>(sql`select count(*)::int as n from efiles`)).rows[0]!.n).toBe(8);

    // Every files row has its bytes on disk; PDFs are PDFs.
    const rows = await app.db.select().from(files);
    expect(rows.length).toBe(summary.counts.files);
    for (const row of rows) {
      const path = app.storage.storedPath(row.area, row.storedName);
      expect((await stat(path)).size).toBe(row.size);
      if (row.mimeType === 'application/pdf') expect((await readFile(path)).subarray(0, 5).toString()).toBe('%PDF-');
    }

    // The dispatched letter is signed by the demo's own seal, and pdfsig finds its signature valid (decision 120).
    const { rows: sealed } = await app.db.execute<{ area: string; stored_name: string }>(sql`
      select f.area, f.stored_name from dispatches d
        join efile_items i on i.id = d.item_id join files f on f.id = i.file_id`);
    expect(sealed.length).toBeGreaterThan(0);
    for (const f of sealed) {
      const report = execFileSync('pdfsig', [app.storage.storedPath(f.area as never, f.stored_name)], {
        encoding: 'utf8',
      });
      expect(report).toContain('Signature Validation: Signature is Valid.');
    }

    // Letter IDs look like L-2026-000123 and the counters know the last one handed out.
    const ids = (await app.db.select({ letterId: letters.letterId }).from(letters)).map((l) => l.letterId);
    expect(ids.every((id) => /^L-\d{4}-\d{6}$/.test(id))).toBe(true);
    for (const counter of await app.db.select().from(letterCounters)) {
      const ofYear = ids.filter((id) => id.startsWith(`L-${counter.year}-`));
      expect(counter.last).toBe(ofYear.length);
      expect(ofYear).toContain(`L-${counter.year}-${String(counter.last).padStart(6, '0')}`);
    }

    // The printed accounts sign in with the printed password; the pending ones are told to wait.
    const director = approved.find((a) => a.role === 'director')!;
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: director.email, password: DEMO_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const pending = summary.accounts.find((a) => a.status === 'pending')!;
    const refused = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: pending.email, password: DEMO_PASSWORD },
    });
    expect(refused.statusCode).toBe(403);

    // The dak at work (decision 033): letters marked, received, overdue, sent back and closed.
    const as = async (email: string) => {
      const [row] = await app.db.select().from(users).where(eq(users.email, email));
      return await authHeaders(app, row!);
    };
    const inbox = async (email: string, query = '') => {
      const res = await app.inject({ method: 'GET', url: `/api/dac/inbox${query}`, headers: await as(email) });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { letters: { movement: { status: string; overdue: boolean } }[] }).letters;
    };
    // The demo employee (the first employee the demo prints) has letters waiting, held (one overdue) and closed.
    const employee = approved.find((a) => a.role === 'employee')!;
    expect((await inbox(employee.email)).length).toBeGreaterThan(0);
    const held = await inbox(employee.email, '?status=received');
    expect(held.some((l) => l.movement.overdue)).toBe(true);
    expect((await inbox(employee.email, '?status=closed')).length).toBeGreaterThan(0);
    // Every role has something in "Marked to Me": the director, the administrator, the first group head.
    for (const role of ['director', 'admin', 'associate_director']) {
      const who = approved.find((a) => a.role === role)!;
      expect((await inbox(who.email)).length, `${role} ${who.email}`).toBeGreaterThan(0);
    }
    // The director's pendency: officers holding letters, some past due, some closed in the period.
    const report = await app.inject({
      method: 'GET',
      url: '/api/dac/pendency?from=2026-10-22&to=2026-11-21',
      headers: await as(director.email),
    });
    expect(report.statusCode, report.body).toBe(200);
    const { officers, groups, oldest } = report.json() as {
      officers: { pending: number; overdue: number; closed: number }[];
      groups: unknown[];
      oldest: unknown[];
    };
    expect(officers.filter((o) => o.pending > 0).length).toBeGreaterThanOrEqual(3);
    expect(officers.filter((o) => o.overdue > 0).length).toBeGreaterThanOrEqual(2);
    expect(officers.reduce((n, o) => n + o.closed, 0)).toBeGreaterThanOrEqual(3);
    expect(groups.length).toBeGreaterThanOrEqual(3);
    expect(oldest.length).toBeGreaterThan(0);

    // Decision 079: the demo employee has a copy for information, and a letter of theirs was pulled back once.
    expect((await inbox(employee.email, '?status=info')).length).toBeGreaterThan(0);
    const pulled = await app.db.select().from(letterMovements).where(eq(letterMovements.outcome, 'pulled_back'));
    expect(pulled).toHaveLength(1);
    const history = await app.inject({
      method: 'GET',
      url: `/api/dac/${pulled[0]!.letterId}/movements`,
      headers: await as(employee.email),
    });
    expect(history.statusCode, history.body).toBe(200);
    expect((history.json() as { outcome: string | null }[]).map((m) => m.outcome)).toContain('pulled_back');

    // Decision 078: the first group head's dak is delegated to the demo employee, in force today.
    const head = approved.find((a) => a.role === 'associate_director')!;
    const delegations = async (email: string) => {
      const res = await app.inject({ method: 'GET', url: '/api/dac/delegations', headers: await as(email) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { given: { delegate: { name: string } }[]; received: { officer: { name: string } }[] };
    };
    expect((await delegations(employee.email)).received.map((d) => d.officer.name)).toContain(head.name);
    expect((await delegations(head.email)).given.map((d) => d.delegate.name)).toContain(employee.name);
    expect((await delegations(director.email)).given).toHaveLength(1); // one to come

    // Decisions 073 and 074: circulars to acknowledge; the demo people have some acknowledged and some overdue.
    const mine = async (email: string, status: 'pending' | 'acknowledged') => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/acknowledgements?status=${status}`,
        headers: await as(email),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { overdue: boolean }[];
    };
    for (const who of [employee, head, director]) {
      expect((await mine(who.email, 'acknowledged')).length, who.email).toBeGreaterThan(0);
      expect(
        (await mine(who.email, 'pending')).some((a) => a.overdue),
        who.email,
      ).toBe(true);
    }
    // The administrator publishes the lab's and reads the reports; is asked by the group circular of their group.
    const admin = approved.find((a) => a.role === 'admin')!;
    expect((await mine(admin.email, 'pending')).length).toBeGreaterThan(0);
    const reports = async (email: string) => {
      const res = await app.inject({ method: 'GET', url: '/api/acknowledgement-requests', headers: await as(email) });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { totals: { acknowledged: number; overdue: number } }[]).map((r) => r.totals);
    };
    const totals = await reports(admin.email);
    expect(totals).toHaveLength(4);
    expect(totals.some((t) => t.acknowledged > 0 && t.overdue > 0)).toBe(true);
    // A group head reads their group's part of the lab's circulars.
    expect((await reports(head.email)).length).toBeGreaterThan(0);
  });

  it('refuses politely, changing nothing, when the portal already has data', async () => {
    const app = await buildTestApp();
    const before = await app.db.select({ n: count() }).from(users);
    expect(await demoRefusal(app.db)).toMatch(/already holds a lab and \d+ user accounts/);
    await expect(seedDemo(app.db, app.storage)).rejects.toThrow(/fills only an empty portal/);
    expect(await app.db.select({ n: count() }).from(users)).toEqual(before);
    const [admin] = await app.db.select().from(users).where(eq(users.email, 'manoj.bhatia@lab.local'));
    expect(admin?.role).toBe('admin');
  });
});
