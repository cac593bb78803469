import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { activityLogs, users } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';

buildTestAppBeforeAll();

/** GET and PUT /api/users/me/mail-preferences (decision 081): each person's choice per kind of mail. */
const MAIL = { SMTP_URL: 'smtp://127.0.0.1:2', MAIL_FROM: 'portal@lab.test', PORTAL_URL: 'http://localhost:4000' };
const URL = '/api/users/me/mail-preferences';

describe('/api/users/me/mail-preferences', () => {
  it('refuses a visitor', async () => {
    const app = await buildTestApp(MAIL);
    for (const method of ['GET', 'PUT'] as const) {
      const res = await app.inject({ method, url: URL, payload: { preferences: { letter_marked: 'now' } } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'auth.sign_in_required' });
    }
  });

  it('answers the defaults, the admins’ kind to admins only, and the mandatory mails', async () => {
    const app = await buildTestApp(MAIL);
    const employee = await createUser(app, 'employee');
    const admin = await createUser(app, 'admin');
    const mine = await app.inject({ method: 'GET', url: URL, headers: await authHeaders(app, employee) });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({
      email: true,
      preferences: [
        { kind: 'letter_marked_urgent', choice: 'now' },
        { kind: 'letter_marked', choice: 'digest' },
        { kind: 'letter_returned', choice: 'now' },
        { kind: 'letter_due', choice: 'now' },
        { kind: 'letter_overdue', choice: 'now' },
        { kind: 'efile', choice: 'now' },
        { kind: 'acknowledgement', choice: 'now' },
        { kind: 'close_group_ending', choice: 'now' },
      ],
      mandatory: ['account_approved', 'account_rejected', 'password_reset'],
    });
    const admins = await app.inject({ method: 'GET', url: URL, headers: await authHeaders(app, admin) });
    expect(admins.json().preferences).toContainEqual({ kind: 'registration_received', choice: 'digest' });
  });

  it.each([
    [{}, 'users.mail_preferences_required'],
    [{ preferences: {} }, 'users.mail_preferences_required'],
    [{ preferences: 'now' }, 'users.mail_preferences_required'],
    [{ preferences: { letter_marked: 'weekly' } }, 'users.mail_choice_invalid'],
    [{ preferences: { letter_marked: 7 } }, 'users.mail_choice_invalid'],
    [{ preferences: { birthdays: 'now' } }, 'users.mail_kind_invalid'],
    [{ preferences: { password_reset: 'off' } }, 'users.mail_kind_mandatory'],
    [{ preferences: { account_approved: 'off' } }, 'users.mail_kind_mandatory'],
  ])('refuses %j with %s', async (payload, code) => {
    const app = await buildTestApp(MAIL);
    const user = await createUser(app, 'employee');
    const res = await app.inject({ method: 'PUT', url: URL, payload, headers: await authHeaders(app, user) });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code });
  });

  it('refuses the admins’ kind to anyone else (403), and takes it from an admin', async () => {
    const app = await buildTestApp(MAIL);
    for (const role of ['employee', 'director', 'associate_director'] as const) {
      const user = await createUser(app, role);
      const res = await app.inject({
        method: 'PUT',
        url: URL,
        payload: { preferences: { registration_received: 'now' } },
        headers: await authHeaders(app, user),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'users.mail_kind_admins_only' });
    }
    const admin = await createUser(app, 'admin');
    const res = await app.inject({
      method: 'PUT',
      url: URL,
      payload: { preferences: { registration_received: 'now' } },
      headers: await authHeaders(app, admin),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().preferences).toContainEqual({ kind: 'registration_received', choice: 'now' });
  });

  it.each(['employee', 'director', 'associate_director', 'admin'] as const)(
    'keeps the choices of a %s, their own only, logging a change once',
    async (role) => {
      const app = await buildTestApp(MAIL);
      const user = await createUser(app, role);
      const other = await createUser(app, 'employee');
      const headers = await authHeaders(app, user);
      for (const preferences of [{ letter_marked: 'off' }, { letter_marked: 'off' }, { letter_due: 'digest' }]) {
        const res = await app.inject({ method: 'PUT', url: URL, payload: { preferences }, headers });
        expect(res.statusCode, res.body).toBe(200);
      }
      const res = await app.inject({ method: 'GET', url: URL, headers });
      expect(res.json().preferences).toEqual(
        expect.arrayContaining([
          { kind: 'letter_marked', choice: 'off' },
          { kind: 'letter_due', choice: 'digest' },
          { kind: 'letter_returned', choice: 'now' },
        ]),
      );
      const [mine] = await app.db.select().from(users).where(eq(users.id, user.id));
      expect(mine!.mailPreferences).toEqual({ letter_marked: 'off', letter_due: 'digest' });
      const [theirs] = await app.db.select().from(users).where(eq(users.id, other.id));
      expect(theirs!.mailPreferences).toEqual({});
      const logged = await app.db
        .select({ code: activityLogs.code })
        .from(activityLogs)
        .where(and(eq(activityLogs.userId, user.id), eq(activityLogs.code, 'activity.mail_preferences_changed')));
      expect(logged).toHaveLength(2);
    },
  );

  it('without SMTP_URL: says there is no email, and refuses a change (409)', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user);
    const got = await app.inject({ method: 'GET', url: URL, headers });
    expect(got.json()).toMatchObject({ email: false });
    const res = await app.inject({
      method: 'PUT',
      url: URL,
      payload: { preferences: { letter_marked: 'now' } },
      headers,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'users.mail_off' });
  });
});
