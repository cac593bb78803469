import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Attribute, Change } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { activityLogs, auditEvents, notifications, sessions, users } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser, TEST_PASSWORD } from '#server/test/factories.ts';
import { group, PEOPLE, person, SERVICE_DN, SERVICE_PASSWORD, type Slapd, startSlapd } from '#server/test/slapd.ts';

import { escapeFilterValue, groupBase, verifyDirectoryPassword } from './directory.ts';

/**
 * Sign-in with the lab's directory (decision 062), against a real OpenLDAP (server/test/slapd.ts):
 * mapped roles through nested groups, an unmapped person pending, a disabled one refused, a group removal ending the
 * session through the directory check, the directory down, LDAP_ONLY, the throttle.
 */

const PASSWORD = 'directory-pw-1';
const people = ['asha', 'meera', 'ravi', 'kiran', 'dev', 'tara', 'tess', 'noor', 'lena'].map((uid) => ({
  uid,
  name: `${uid[0]!.toUpperCase()}${uid.slice(1)} Sharma`,
  mail: uid === 'noor' ? undefined : `${uid}@lab.local`,
  title: 'Scientist D',
  password: PASSWORD,
  disabled: uid === 'dev',
}));

let slapd: Slapd;
let app: FastifyInstance;
let ldapEnv: Record<string, string>;

beforeAll(async () => {
  slapd = await startSlapd(people, {
    // asha is an admin through a group of groups; tara also sits in a cycle of groups.
    'portal-admins': [group('safety-leads')],
    'safety-leads': [person('asha')],
    'portal-directors': [person('meera')],
    'portal-staff': [person('ravi'), person('dev'), person('tara'), person('tess'), person('noor'), person('lena')],
    'fire-team': [person('ravi')],
    'loop-a': [person('tara'), group('loop-b')],
    'loop-b': [group('loop-a')],
  });
  ldapEnv = {
    LDAP_URL: slapd.url,
    LDAP_BIND_DN: SERVICE_DN,
    LDAP_BIND_PASSWORD: SERVICE_PASSWORD,
    LDAP_USER_BASE: PEOPLE,
    LDAP_ROLE_GROUPS: `employee=${group('portal-staff')};admin=${group('portal-admins')};director=${group('portal-directors')}`,
    LDAP_GROUP_MAP: `${group('fire-team')}=Fire Safety`,
    LDAP_CHECK_SECONDS: '1',
  };
  app = await buildTestApp(ldapEnv);
  await createGroup(app, { name: 'Fire Safety' });
}, 60_000);
afterAll(async () => {
  await slapd?.close();
});

const login = (email: string, password = PASSWORD, target = app) =>
  target.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const me = (token: string) =>
  app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
const userByEmail = async (email: string, target = app) =>
  (await target.db.select().from(users).where(eq(users.email, email)))[0]!;
const auditOf = (userId: string) =>
  app.db.select().from(auditEvents).where(eq(auditEvents.objectId, userId)).orderBy(asc(auditEvents.seq));
const codesOf = async (userId: string) =>
  (await app.db.select().from(activityLogs).where(eq(activityLogs.userId, userId))).map((a) => a.code);

describe('signing in with the lab directory', () => {
  it('gives a person in a mapped group (through a nested group) an approved account with its role and details', async () => {
    const res = await login('asha@lab.local');
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ role: 'admin', status: 'approved', authSource: 'directory' });
    const row = await userByEmail('asha@lab.local');
    expect(row).toMatchObject({
      authSource: 'directory',
      passwordHash: null,
      directoryDn: person('asha'),
      name: 'Asha Sharma',
      designation: 'Scientist D',
      approvedBy: null,
    });
    expect(await codesOf(row.id)).toEqual(
      expect.arrayContaining(['activity.directory_account_created', 'activity.signed_in']),
    );
    const [session] = await app.db.select().from(sessions).where(eq(sessions.userId, row.id));
    expect(session!.method).toBe('directory');
    // The audit trail (decision 069): the directory's grant, from nothing, at the sign-in's address, then the sign-in.
    const events = await auditOf(row.id);
    expect(events.map((e) => [e.action, e.actorId, e.clientAddress, JSON.parse(e.details!)])).toEqual([
      ['status_changed', null, '127.0.0.1', { from: null, to: 'approved', via: 'directory' }],
      ['role_changed', null, '127.0.0.1', { from: null, to: 'admin', via: 'directory' }],
      ['sign_in', row.id, '127.0.0.1', { method: 'directory', secondFactor: null }],
    ]);
    // The portal never kept the password: a second sign-in binds again.
    expect((await login('asha@lab.local')).statusCode).toBe(200);
  });

  it('accepts the uid as the login, maps the director role and the research group', async () => {
    const ravi = await login('ravi');
    expect(ravi.statusCode).toBe(200);
    expect(ravi.json().user).toMatchObject({ role: 'employee', group: { name: 'Fire Safety' } });
    const meera = await login('MEERA@lab.local');
    expect(meera.json().user.role).toBe('director');
  });

  it('makes an unmapped person a pending account awaiting approval', async () => {
    const admin = await createUser(app, 'admin');
    const res = await login('kiran');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.account_pending');
    const row = await userByEmail('kiran@lab.local');
    expect(row).toMatchObject({ status: 'pending', authSource: 'directory', passwordHash: null });
    expect(await codesOf(row.id)).toContain('activity.directory_account_pending');
    // The admins are told of it as of a registration through the form ("Registration received").
    const told = await app.db
      .select({ userId: notifications.userId, kind: notifications.kind })
      .from(notifications)
      .where(eq(notifications.subjectId, row.id));
    expect(told).toContainEqual({ userId: admin.id, kind: 'registration_received' });
    expect(told.every((n) => n.kind === 'registration_received')).toBe(true);
  });

  it('approves a pending account once a mapped group holds the person', async () => {
    expect((await login('kiran')).statusCode).toBe(403);
    await slapd.asRoot((c) =>
      c.modify(
        group('portal-staff'),
        new Change({ operation: 'add', modification: new Attribute({ type: 'member', values: [person('kiran')] }) }),
      ),
    );
    const res = await login('kiran');
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ status: 'approved', role: 'employee' });
    const row = await userByEmail('kiran@lab.local');
    expect(await codesOf(row.id)).toContain('activity.directory_account_pending');
    const approvals = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, row.id));
    expect(approvals.map((a) => a.code)).toContain('activity.directory_account_approved');
  });

  it('refuses a wrong password, an unknown login and a filter in the login as wrong credentials', async () => {
    for (const [who, pw] of [
      ['ravi', 'wrong-password'],
      ['nobody', PASSWORD],
      ['*', PASSWORD],
      ['r*', PASSWORD],
      ['ravi)(uid=*', PASSWORD],
    ]) {
      const res = await login(who!, pw);
      expect(res.statusCode, who).toBe(401);
      expect(res.json().code).toBe('auth.invalid_credentials');
    }
  });

  it('refuses a person disabled in the directory (pwdAccountLockedTime)', async () => {
    const res = await login('dev');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'auth.directory_disabled',
      message: 'Your account is disabled in the lab directory. Please contact the administrator.',
    });
  });

  it('refuses a directory entry without an email address', async () => {
    const res = await login('noor');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.directory_no_email');
  });

  it('does not turn a local account with the same email into a directory account', async () => {
    const local = await createUser(app, 'employee', { email: 'lena@lab.local' });
    const byUid = await login('lena');
    expect(byUid.statusCode).toBe(403);
    expect(byUid.json().code).toBe('auth.directory_local_account');
    // The local account signs in with its own password, as today.
    const own = await login('lena@lab.local', TEST_PASSWORD);
    expect(own.statusCode).toBe(200);
    expect((await userByEmail(local.email)).authSource).toBe('local');
  });

  it('ends the session of a person removed from their group at the next request, within a minute', async () => {
    const res = await login('tara');
    expect(res.statusCode).toBe(200);
    const { token } = res.json();
    expect((await me(token)).statusCode).toBe(200);
    await slapd.asRoot((c) =>
      c.modify(
        group('portal-staff'),
        new Change({ operation: 'delete', modification: new Attribute({ type: 'member', values: [person('tara')] }) }),
      ),
    );
    const removed = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - removed < 60_000) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await me(token)).statusCode;
    }
    expect(status).toBe(401);
    expect(Date.now() - removed).toBeLessThan(60_000);
    const row = await userByEmail('tara@lab.local');
    const live = await app.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, row.id)));
    expect(live.every((s) => s.endedAt !== null)).toBe(true);
    expect(await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, row.id))).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'activity.directory_sessions_ended_no_access' })]),
    );
    // And the next sign-in is refused with the reason.
    const again = await login('tara');
    expect(again.statusCode).toBe(403);
    expect(again.json().code).toBe('auth.directory_no_access');
  }, 70_000);

  it('updates a role the directory changed, through the check', async () => {
    const res = await login('meera');
    const { token } = res.json();
    await slapd.asRoot((c) =>
      c.modify(
        group('portal-admins'),
        new Change({ operation: 'add', modification: new Attribute({ type: 'member', values: [person('meera')] }) }),
      ),
    );
    await app.directoryCheck!.runNow();
    const deadline = Date.now() + 10_000;
    while ((await userByEmail('meera@lab.local')).role !== 'admin' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
    }
    expect((await me(token)).json().role).toBe('admin');
    // The check's change is in the audit trail: no person, no address, the directory as its source.
    const meera = await userByEmail('meera@lab.local');
    const [change] = (await auditOf(meera.id)).filter((e) => e.action === 'role_changed').slice(-1);
    expect(change).toMatchObject({ actorId: null, clientAddress: null });
    expect(JSON.parse(change!.details!)).toEqual({ from: 'director', to: 'admin', via: 'directory' });
  });

  it('refuses a password change in the portal to a directory account', async () => {
    const ravi = await userByEmail('ravi@lab.local');
    const res = await app.inject({
      method: 'PUT',
      url: `/api/users/${ravi.id}/password`,
      headers: await authHeaders(app, ravi),
      payload: { currentPassword: PASSWORD, newPassword: 'another-password-1' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('users.password_in_directory');
  });

  it('throttles wrong directory passwords as it throttles local ones', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await login('tess', 'wrong-password')).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
    // Even the right password waits now.
    expect((await login('tess')).statusCode).toBe(429);
  });

  it('confirms a directory person for the fresh check with their directory password (POST /api/auth/step-up)', async () => {
    const { token } = (await login('meera')).json() as { token: string };
    const stepUp = (password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/step-up',
        headers: { authorization: `Bearer ${token}` },
        payload: { password },
      });
    const wrong = await stepUp('not-her-password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'auth.step_up_wrong_password', field: 'password' });
    const right = await stepUp(PASSWORD);
    expect(right.statusCode).toBe(200);
    const row = await userByEmail('meera@lab.local');
    expect(await codesOf(row.id)).toContain('activity.identity_confirmed_password');
  });

  it('verifies a directory password for the fresh check (verifyDirectoryPassword)', async () => {
    const asha = await userByEmail('asha@lab.local');
    expect(await verifyDirectoryPassword(app.config.ldap, asha, PASSWORD)).toBe(true);
    expect(await verifyDirectoryPassword(app.config.ldap, asha, 'wrong')).toBe(false);
    expect(await verifyDirectoryPassword(app.config.ldap, asha, '')).toBe(false);
  });
});

describe('with the directory down', () => {
  it('tells a directory person to try later and still signs a local admin in', async () => {
    const admin = await createUser(app, 'admin');
    await slapd.stop();
    try {
      const res = await login('ravi');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 'auth.directory_unreachable',
        message: 'The lab directory cannot be reached. Try again in a few minutes.',
      });
      expect((await login(admin.email, TEST_PASSWORD)).statusCode).toBe(200);
    } finally {
      await slapd.start();
    }
  });
});

describe('LDAP_ONLY', () => {
  it('leaves the portal password to admins and signs directory people in', async () => {
    const only = await buildTestApp({ ...ldapEnv, LDAP_ONLY: 'true' });
    const employee = await createUser(only, 'employee');
    const admin = await createUser(only, 'admin');
    const refused = await login(employee.email, TEST_PASSWORD, only);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('auth.local_sign_in_off');
    expect((await login(admin.email, TEST_PASSWORD, only)).statusCode).toBe(200);
    expect((await login('asha', PASSWORD, only)).statusCode).toBe(200);
  });
});

describe('the directory helpers', () => {
  it('escapes a login per RFC 4515', () => {
    expect(escapeFilterValue('a*b(c)d\\e\0')).toBe('a\\2ab\\28c\\29d\\5ce\\00');
  });
  it('searches groups under the common suffix of the user base and the configured groups', () => {
    expect(groupBase(app.config.ldap!)).toBe('dc=lab,dc=local');
  });
});
