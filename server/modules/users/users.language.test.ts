import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { activityLogs, users } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser, TEST_PASSWORD } from '#server/test/factories.ts';

buildTestAppBeforeAll();

/** PUT /api/users/me/language (decisions 076, 102): the language a person's mail is written in and the portal opens in. */
describe('PUT /api/users/me/language', () => {
  const put = async (payload: unknown, headers: Record<string, string> = {}) =>
    (await buildTestApp()).inject({
      method: 'PUT',
      url: '/api/users/me/language',
      payload: payload as object,
      headers,
    });

  it('refuses a visitor', async () => {
    const res = await put({ language: 'hi' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'auth.sign_in_required' });
  });

  it.each([[{}], [{ language: 'fr' }], [{ language: 'HI' }], [{ language: 7 }]])('refuses %j', async (payload) => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const res = await put(payload, await authHeaders(app, user));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'users.language_invalid', field: 'language' });
  });

  it.each(['employee', 'director', 'associate_director', 'admin'] as const)(
    'keeps the choice of a signed-in %s, their own only, logging a change once',
    async (role) => {
      const app = await buildTestApp();
      const user = await createUser(app, role);
      const other = await createUser(app, 'employee');
      const headers = await authHeaders(app, user);
      for (const language of ['hi', 'hi', 'en', 'hi']) {
        const res = await put({ language }, headers);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ message: 'Language saved.' });
      }
      const [row] = await app.db.select({ language: users.language }).from(users).where(eq(users.id, user.id));
      expect(row!.language).toBe('hi');
      const [untouched] = await app.db.select({ language: users.language }).from(users).where(eq(users.id, other.id));
      expect(untouched!.language).toBe('en');
      const logged = await app.db
        .select({ code: activityLogs.code })
        .from(activityLogs)
        .where(and(eq(activityLogs.userId, user.id), eq(activityLogs.targetId, user.id)))
        .orderBy(activityLogs.timestamp);
      expect(logged.map((l) => l.code)).toEqual([
        'activity.language_chosen_hi',
        'activity.language_chosen_en',
        'activity.language_chosen_hi',
      ]);
    },
  );

  it("a first choice of the default English is kept as a choice, once; the account's JSON says it was chosen", async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user);
    const me = async () =>
      (await app.inject({ method: 'GET', url: '/api/auth/me', headers })).json<{
        language: string;
        languageChosen: boolean;
      }>();
    expect(await me()).toMatchObject({ language: 'en', languageChosen: false });

    for (const language of ['en', 'en']) expect((await put({ language }, headers)).statusCode).toBe(200);
    expect(await me()).toMatchObject({ language: 'en', languageChosen: true });
    const logged = await app.db
      .select({ code: activityLogs.code })
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, user.id), eq(activityLogs.targetId, user.id)));
    expect(logged.map((l) => l.code)).toEqual(['activity.language_chosen_en']);
  });

  it('signing in tells the person whether their language was chosen', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const login = async () =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: user.email, password: TEST_PASSWORD },
        })
      ).json<{ user: { language: string; languageChosen: boolean } }>().user;
    expect(await login()).toMatchObject({ language: 'en', languageChosen: false });
    await put({ language: 'hi' }, await authHeaders(app, user));
    expect(await login()).toMatchObject({ language: 'hi', languageChosen: true });
  });
});
