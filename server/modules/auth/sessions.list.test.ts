import { randomUUID } from 'node:crypto';

import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';

import { activityLogs, sessions, users } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { createUser, tokenFor } from '#server/test/factories.ts';

/** The person's live sessions: listed, newest first, and signed out one by one. */
buildTestAppBeforeAll();

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('GET /api/auth/sessions and DELETE /api/auth/sessions/:id (issue 30 item 5)', () => {
  const list = async (app: FastifyInstance, token: string) => {
    const res = await app.inject({ url: '/api/auth/sessions', headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { _id: string; current: boolean; userAgent: string; address: string }[];
  };
  const sid = (app: FastifyInstance, token: string) => app.jwt.decode<{ sid: string }>(token)!.sid;

  it('refuses a visitor', async () => {
    const app = await buildTestApp();
    expect((await app.inject({ url: '/api/auth/sessions' })).statusCode).toBe(401);
    const del = await app.inject({ method: 'DELETE', url: `/api/auth/sessions/${randomUUID()}` });
    expect(del.statusCode).toBe(401);
  });

  it('lists the live sessions, newest first, this one marked; not ended, expired or older than "sign out everywhere"', async () => {
    const app = await buildTestApp();
    const user = await createUser(app);
    const old = await tokenFor(app, user);
    const ended = await tokenFor(app, user);
    const expired = await tokenFor(app, user);
    const other = await tokenFor(app, user);
    const mine = await tokenFor(app, user);
    await app.db
      .update(sessions)
      .set({ endedAt: new Date() })
      .where(eq(sessions.id, sid(app, ended)));
    await app.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, sid(app, expired)));
    await app.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 3600_000) })
      .where(eq(sessions.id, sid(app, old)));
    await app.db
      .update(users)
      .set({ sessionsValidAfter: new Date(Date.now() - 1800_000) })
      .where(eq(users.id, user.id));
    // The token of a changed sessions version no longer signs in: read the list with a fresh one.
    const now = await tokenFor(app, (await app.db.select().from(users).where(eq(users.id, user.id)))[0]!);
    const rows = await list(app, now);
    expect(rows.map((r) => r._id)).toEqual([sid(app, now), sid(app, mine), sid(app, other)]);
    expect(rows.map((r) => r.current)).toEqual([true, false, false]);
    expect(rows[0]).toMatchObject({ userAgent: 'lab-portal tests', address: '127.0.0.1' });
  });

  it("signs one session out (the owner's only), with its activity row; another person's is not found", async () => {
    const app = await buildTestApp();
    const user = await createUser(app);
    const stranger = await createUser(app);
    const laptop = await tokenFor(app, user);
    const phone = await tokenFor(app, user);
    const theirs = await tokenFor(app, stranger);
    const notMine = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${sid(app, theirs)}`,
      headers: bearer(laptop),
    });
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json().message).toBe('That session was not found, or has already ended.');
    expect((await app.inject({ url: '/api/auth/me', headers: bearer(theirs) })).statusCode).toBe(200);

    const res = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${sid(app, phone)}`,
      headers: bearer(laptop),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Signed out of that session.');
    expect((await app.inject({ url: '/api/auth/me', headers: bearer(phone) })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/auth/me', headers: bearer(laptop) })).statusCode).toBe(200);
    const logs = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, user.id), eq(activityLogs.code, 'activity.session_ended')));
    expect(logs.map((l) => l.action)).toEqual(['Signed out of a session from 127.0.0.1']);
    const again = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${sid(app, phone)}`,
      headers: bearer(laptop),
    });
    expect(again.statusCode).toBe(404);
  });

  it('signing this session out clears the download cookie', async () => {
    const app = await buildTestApp();
    const user = await createUser(app);
    const token = await tokenFor(app, user);
    const res = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${sid(app, token)}`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/lp_token=;/);
    expect((await app.inject({ url: '/api/auth/me', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('says why a malformed id is refused', async () => {
    const app = await buildTestApp();
    const user = await createUser(app);
    const res = await app.inject({
      method: 'DELETE',
      url: '/api/auth/sessions/nope',
      headers: bearer(await tokenFor(app, user)),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('common.invalid_id');
  });
});
