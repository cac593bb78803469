import { randomUUID } from 'node:crypto';

import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Attribute, Change } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { activityLogs, notifications, sessions, users } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { createUser, TEST_PASSWORD } from '#server/test/factories.ts';
import { signInAtProvider, startTestProvider, TEST_CLIENT, type TestProvider } from '#server/test/oidc-provider.ts';
import { group, PEOPLE, person, SERVICE_DN, SERVICE_PASSWORD, type Slapd, startSlapd } from '#server/test/slapd.ts';

/**
 * One person, one lock and one account, whatever login reaches them (decision 094), against a real OpenLDAP and a real
 * OpenID provider: the lock-out counts per directory entry (fullwidth letters and the mail in any case included), the
 * single sign-on and "stay signed in" of a directory person ask the directory first, and an entry whose mail is
 * another directory account's never takes that account while that account's own entry is there.
 */

const PASSWORD = 'directory-pw-1';
const PORTAL_URL = 'http://localhost:3999';
const CALLBACK = `${PORTAL_URL}/api/auth/sso/callback`;
const uids = ['ldtwin', 'solo', 'sora', 'orig', 'imposter', 'mover'];
const mailOf: Record<string, string> = { imposter: 'orig@lab.local', mover: 'orig2@lab.local' };

let slapd: Slapd;
let provider: TestProvider;
let app: FastifyInstance;

beforeAll(async () => {
  slapd = await startSlapd(
    uids.map((uid) => ({ uid, name: `${uid} Rao`, mail: mailOf[uid] ?? `${uid}@lab.local`, password: PASSWORD })),
    { 'portal-staff': uids.map(person) },
  );
  provider = await startTestProvider(PORTAL_URL);
  app = await buildTestApp({
    LDAP_URL: slapd.url,
    LDAP_BIND_DN: SERVICE_DN,
    LDAP_BIND_PASSWORD: SERVICE_PASSWORD,
    LDAP_USER_BASE: PEOPLE,
    LDAP_ROLE_GROUPS: `employee=${group('portal-staff')}`,
    PORTAL_URL,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
  });
}, 60_000);
afterAll(async () => {
  await slapd?.close();
  await provider?.close();
});

const login = (email: string, password = PASSWORD) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const userByEmail = async (email: string) => (await app.db.select().from(users).where(eq(users.email, email)))[0]!;
const fullwidth = (text: string) =>
  [...text].map((c) => (/[a-z]/.test(c) ? String.fromCodePoint(c.codePointAt(0)! - 0x61 + 0xff41) : c)).join('');
const modifyPerson = (uid: string, change: Change) => slapd.asRoot((c) => c.modify(person(uid), change));

describe('the lock-out of a directory person (decision 094)', () => {
  it('keeps the lock whichever form of the uid or mail is typed, the right password included', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await login('ldtwin', 'wrong-password')).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401]);
    expect(fullwidth('ldtwin')).toBe('ｌｄｔｗｉｎ');
    for (const variant of [
      'ldtwin',
      fullwidth('ldtwin'),
      'ｌdtwin',
      'LDTWIN',
      'ldtwin@lab.local',
      'LdTwin@LAB.local',
    ]) {
      const res = await login(variant, 'wrong-password');
      expect([variant, res.statusCode]).toEqual([variant, 429]);
      expect(res.json().code).toBe('auth.account_locked');
    }
    // The right password, in another form, waits as well.
    expect((await login(fullwidth('ldtwin@lab.local'))).statusCode).toBe(429);
    expect((await login('LDTWIN@LAB.LOCAL')).statusCode).toBe(429);
  });

  it('counts failures spread over the forms of one login as one run', async () => {
    const forms = ['solo', 'SOLO@lab.local', fullwidth('solo'), 'Solo', 'solo@LAB.LOCAL'];
    const codes: number[] = [];
    for (const form of forms) codes.push((await login(form, 'wrong-password')).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401]);
    expect((await login('solo')).statusCode).toBe(429);
  });

  it('normalises a local login too (NFKC, lower case) before choosing its counter', async () => {
    const local = await createUser(app, 'employee', { email: `local-${randomUUID().slice(0, 8)}@lab.test` });
    for (let i = 0; i < 5; i++) expect((await login(local.email, 'wrong-password')).statusCode).toBe(401);
    const res = await login(fullwidth(local.email).toUpperCase(), TEST_PASSWORD);
    expect(res.statusCode).toBe(429);
    expect((await login(local.email, TEST_PASSWORD)).statusCode).toBe(429);
  });
});

describe('an entry whose mail is another directory account’s (decision 094)', () => {
  it('refuses it with 409 and tells the admins while the account’s own entry is there', async () => {
    const admin = await createUser(app, 'admin');
    expect((await login('orig')).statusCode).toBe(200);
    const account = await userByEmail('orig@lab.local');
    expect(account.directoryDn).toBe(person('orig'));

    const res = await login('imposter');
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('auth.directory_mail_in_use');
    // The account is untouched and its owner still signs in.
    expect((await userByEmail('orig@lab.local')).directoryDn).toBe(person('orig'));
    expect((await login('orig')).statusCode).toBe(200);
    const told = await app.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, admin.id), eq(notifications.kind, 'directory_mail_collision')));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ subjectType: 'user', subjectId: account.id });
    const bell = await app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: { authorization: `Bearer ${(await login('orig')).json().token}` },
    });
    expect(bell.json()).not.toContainEqual(expect.objectContaining({ kind: 'directory_mail_collision' }));
    const logged = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, account.id));
    expect(logged.map((l) => l.code)).toContain('activity.directory_mail_collision');
    // A second try tells nobody twice.
    expect((await login('imposter')).statusCode).toBe(409);
    const again = await app.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, admin.id), eq(notifications.kind, 'directory_mail_collision')));
    expect(again).toHaveLength(1);
  });

  it('moves the account to a new entry once its old entry is gone from the directory', async () => {
    expect((await login('mover')).statusCode).toBe(200);
    const account = await userByEmail('orig2@lab.local');
    await slapd.asRoot(async (c) => {
      await c.add(`uid=mover2,${PEOPLE}`, {
        objectClass: 'inetOrgPerson',
        uid: 'mover2',
        cn: 'Mover Rao',
        sn: 'Rao',
        mail: 'orig2@lab.local',
        userPassword: PASSWORD,
      });
      await c.modify(
        group('portal-staff'),
        new Change({
          operation: 'add',
          modification: new Attribute({ type: 'member', values: [`uid=mover2,${PEOPLE}`] }),
        }),
      );
    });
    expect((await login('mover2')).statusCode).toBe(409);
    await slapd.asRoot((c) => c.del(person('mover')));
    const moved = await login('mover2');
    expect(moved.statusCode).toBe(200);
    expect(moved.json().user._id).toBe(account.id);
    expect((await userByEmail('orig2@lab.local')).directoryDn).toBe(`uid=mover2,${PEOPLE}`);
  });
});

describe('single sign-on and "stay signed in" of a directory person (decision 094)', () => {
  /** Single sign-on as the provider's person with this email: the portal's redirect (code or error). */
  const sub = randomUUID();
  async function ssoSignIn(email: string) {
    provider.accounts.set(sub, { sub, email, email_verified: true, name: 'Sora Rao' });
    const started = await app.inject({ method: 'GET', url: '/api/auth/sso/start' });
    const cookie = started.cookies.find((c) => c.name === 'lp_sso')!.value;
    const back = new URL(await signInAtProvider(started.headers.location!, sub, CALLBACK));
    const res = await app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      cookies: { lp_sso: cookie },
    });
    const to = new URL(res.headers.location!, PORTAL_URL);
    return { code: to.searchParams.get('sso'), error: to.searchParams.get('sso_error') };
  }

  it('asks the directory first: disabled there, or out of every mapped group, is refused by every way in', async () => {
    const signedIn = await login('sora');
    expect(signedIn.statusCode).toBe(200);
    const token = signedIn.json().token as string;
    const sso = await ssoSignIn('sora@lab.local');
    expect(sso.error).toBeNull();
    expect(sso.code).toBeTruthy();

    await modifyPerson(
      'sora',
      new Change({
        operation: 'add',
        modification: new Attribute({ type: 'pwdAccountLockedTime', values: ['000001010000Z'] }),
      }),
    );
    expect(await ssoSignIn('sora@lab.local')).toEqual({ code: null, error: 'auth.directory_disabled' });
    const refresh = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refresh.statusCode).toBe(401); // the sessions ended at the refused single sign-on
    expect((await login('sora')).json().code).toBe('auth.directory_disabled');
    const sora = await userByEmail('sora@lab.local');
    const live = await app.db.select().from(sessions).where(eq(sessions.userId, sora.id));
    expect(live.every((s) => s.endedAt !== null)).toBe(true);

    // Enabled again but out of every mapped group: refused too, and a refresh is refused by the directory itself.
    await modifyPerson(
      'sora',
      new Change({ operation: 'delete', modification: new Attribute({ type: 'pwdAccountLockedTime', values: [] }) }),
    );
    const again = await login('sora');
    expect(again.statusCode).toBe(200);
    await slapd.asRoot((c) =>
      c.modify(
        group('portal-staff'),
        new Change({ operation: 'delete', modification: new Attribute({ type: 'member', values: [person('sora')] }) }),
      ),
    );
    const refreshed = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { authorization: `Bearer ${again.json().token}` },
    });
    expect(refreshed.statusCode).toBe(403);
    expect(refreshed.json().code).toBe('auth.directory_no_access');
    expect(await ssoSignIn('sora@lab.local')).toEqual({ code: null, error: 'auth.directory_no_access' });
    expect((await login('sora')).json().code).toBe('auth.directory_no_access');
  });
});
