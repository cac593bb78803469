import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ConfigError, loadConfig } from './config.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const base = { DATA_DIR: dataDir, JWT_SECRET: 'config-secret-config-secret-config' };
const load = (env: Record<string, string>) => loadConfig({ ...base, ...env }, { stdoutIsTTY: false });

/** The ConfigError message loadConfig throws for `env`. */
function refusal(env: Record<string, string>): string {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('MFA_REQUIRED_ROLES and MFA_FOR_CLEARED (decision 064)', () => {
  it('are empty and false by default', () => {
    expect(load({})).toMatchObject({ mfaRequiredRoles: [], mfaForCleared: false });
  });
  it("take the README's names and the database's", () => {
    expect(
      load({ MFA_REQUIRED_ROLES: 'admin, director,associateDirector,associate_director', MFA_FOR_CLEARED: 'true' }),
    ).toMatchObject({ mfaRequiredRoles: ['admin', 'director', 'associate_director'], mfaForCleared: true });
  });
});

describe('loadConfig (issue 18 item 4)', () => {
  it('answers the README defaults for an environment with nothing set', () => {
    const config = loadConfig({ DATA_DIR: dataDir }, { stdoutIsTTY: false });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      jwtExpiresIn: '8h',
      uploadMaxBytes: 26214400,
      largeUploadMaxBytes: 2147483648,
      loginAccountFailures: 5,
      loginAddressFailures: 100,
      registrationsPerAddress: 10,
      feedbackRateLimit: 5,
      stepUp: { minutes: 15, classifications: ['Secret'] },
      auditRetentionDays: 180,
      acknowledgementReminderDays: 2,
      preview: { maxBytes: 31457280, timeoutSeconds: 120, soffice: 'soffice' },
      sandbox: { bwrap: 'bwrap', cpuSeconds: 120, memoryMb: 2048, maxPages: 5000 },
      logLevel: 'info',
      logFormat: 'json',
      trustProxy: 'loopback',
      serveWeb: true,
      runtimeMetrics: false,
      readsAtOnce: 8,
      jwtSecretRotate: false,
      storage: { driver: 'local' },
    });
    // No JWT_SECRET: one generated and kept in DATA_DIR/jwt-secret, the same on the next start.
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(config.jwtSecret);
  });

  it('treats an empty variable as unset', () => {
    expect(load({ PORT: '', TRUST_PROXY: '', DATABASE_URL: '', JWT_SECRET: '' })).toMatchObject({
      port: 3000,
      trustProxy: 'loopback',
      databaseUrl: undefined,
    });
  });

  it('reads what the operator set', () => {
    const config = load({
      PORT: '8080',
      UPLOAD_MAX_BYTES: '1048576',
      LOGIN_ACCOUNT_FAILURES: '7',
      LOG_LEVEL: 'debug',
      SERVE_WEB: 'false',
      RUNTIME_METRICS: 'true',
      READS_AT_ONCE: '0',
      JWT_EXPIRES_IN: '30 min',
      STORAGE: 's3',
      S3_BUCKET: 'uploads',
      S3_ENDPOINT: 'http://minio.lab.local:9000',
    });
    expect(config).toMatchObject({
      port: 8080,
      uploadMaxBytes: 1048576,
      loginAccountFailures: 7,
      logLevel: 'debug',
      serveWeb: false,
      runtimeMetrics: true,
      readsAtOnce: 0,
      jwtExpiresIn: '30 min',
      jwtSecret: base.JWT_SECRET,
    });
    expect(config.storage).toMatchObject({
      driver: 's3',
      bucket: 'uploads',
      region: 'us-east-1',
      forcePathStyle: true,
    });
  });

  it.each([
    ['abc', 'PORT must be a whole number from 0 to 65535 (got "abc").'],
    ['70000', 'PORT must be a whole number from 0 to 65535 (got "70000").'],
    ['-1', 'PORT must be a whole number from 0 to 65535 (got "-1").'],
    ['80.5', 'PORT must be a whole number from 0 to 65535 (got "80.5").'],
  ])('refuses PORT=%s', (port, message) => {
    expect(refusal({ PORT: port })).toBe(message);
  });

  it.each(['-1', 'eight', '2.5', '10001'])('refuses READS_AT_ONCE=%s', (value) => {
    expect(refusal({ READS_AT_ONCE: value })).toBe(
      `READS_AT_ONCE must be a whole number from 0 to 10000 (got "${value}").`,
    );
  });

  it.each([
    ['true', true],
    ['false', false],
    ['loopback', 'loopback'],
    ['10.0.0.5', '10.0.0.5'],
    ['loopback, 10.0.0.0/8,192.168.1.0/255.255.255.0', 'loopback,10.0.0.0/8,192.168.1.0/255.255.255.0'],
    ['linklocal,uniquelocal,::1,fd00::/8', 'linklocal,uniquelocal,::1,fd00::/8'],
  ])('accepts TRUST_PROXY=%s as proxy-addr does', (value, expected) => {
    expect(load({ TRUST_PROXY: value }).trustProxy).toBe(expected);
  });

  it.each(['yes', 'loopback,proxy.lab.local', '10.0.0.0/33', '10.0.0.300', 'fd00::/129'])(
    'refuses TRUST_PROXY=%s, naming the variable and the entry',
    (value) => {
      const message = refusal({ TRUST_PROXY: value });
      expect(message).toMatch(/^TRUST_PROXY must be true, false, or a comma-separated list/);
      expect(message).toContain(`(got "${value}"`);
    },
  );

  it('refuses a TRUST_PROXY hop count, which Fastify would silently ignore', () => {
    expect(refusal({ TRUST_PROXY: '2' })).toMatch(/^TRUST_PROXY must name the proxies, not count them \(got "2"\)/);
  });

  it('refuses a JWT_SECRET shorter than 32 characters without printing it', () => {
    const message = refusal({ JWT_SECRET: 'short-secret' });
    expect(message).toMatch(/^JWT_SECRET must be at least 32 characters long \(it has 12\)\./);
    expect(message).not.toContain('short-secret');
    expect(load({ JWT_SECRET: 'x'.repeat(32) }).jwtSecret).toBe('x'.repeat(32));
  });

  it('reads the fresh check before classified letters (decision 066)', () => {
    expect(load({ STEP_UP_MINUTES: '5', STEP_UP_CLASSIFICATIONS: ' Confidential , Secret,Secret' }).stepUp).toEqual({
      minutes: 5,
      classifications: ['Confidential', 'Secret'],
    });
  });

  it('reads AUDIT_RETENTION_DAYS (decision 068), refusing less than the 180 days CERT-In asks for', () => {
    expect(load({ AUDIT_RETENTION_DAYS: '180' }).auditRetentionDays).toBe(180);
    expect(load({ AUDIT_RETENTION_DAYS: ' 365 ' }).auditRetentionDays).toBe(365);
    expect(refusal({ AUDIT_RETENTION_DAYS: '179' })).toBe(
      `AUDIT_RETENTION_DAYS must be at least 180 days, as CERT-In's directions of April 2022 require (got "179").`,
    );
    expect(refusal({ AUDIT_RETENTION_DAYS: '0' })).toMatch(/^AUDIT_RETENTION_DAYS must be at least 180 days/);
    for (const value of ['half a year', '200.5', '-200', '36501']) {
      expect(refusal({ AUDIT_RETENTION_DAYS: value })).toBe(
        `AUDIT_RETENTION_DAYS must be a whole number of days from 180 to 36500 (got "${value}").`,
      );
    }
  });

  it('reads ACK_REMINDER_DAYS (decision 074), refusing 0 and a fraction', () => {
    expect(load({ ACK_REMINDER_DAYS: '5' }).acknowledgementReminderDays).toBe(5);
    expect(refusal({ ACK_REMINDER_DAYS: '0' })).toMatch(/^ACK_REMINDER_DAYS must be a whole number from 1 to 365/);
    expect(refusal({ ACK_REMINDER_DAYS: '1.5' })).toMatch(/^ACK_REMINDER_DAYS must be a whole number/);
  });

  it('reads BACKUP_KEY (decision 027), refusing one shorter than 32 characters without printing it', () => {
    const message = refusal({ BACKUP_KEY: 'short-backup-key' });
    expect(message).toMatch(/^BACKUP_KEY must be at least 32 characters long \(it has 16\)\./);
    expect(message).not.toContain('short-backup-key');
    expect(load({ BACKUP_KEY: 'k'.repeat(32) }).backupKey).toBe('k'.repeat(32));
    expect(load({}).backupKey).toBeUndefined();
  });

  it.each([
    [{ UPLOAD_MAX_BYTES: 'lots' }, 'UPLOAD_MAX_BYTES must be a number of bytes of at least 1 (got "lots").'],
    [{ LARGE_UPLOAD_MAX_BYTES: '0' }, 'LARGE_UPLOAD_MAX_BYTES must be a number of bytes of at least 1 (got "0").'],
    [{ LOGIN_ACCOUNT_FAILURES: '0' }, 'LOGIN_ACCOUNT_FAILURES must be a whole number of at least 1 (got "0").'],
    [{ LOGIN_ADDRESS_FAILURES: '1.5' }, 'LOGIN_ADDRESS_FAILURES must be a whole number of at least 1 (got "1.5").'],
    [
      { REGISTRATIONS_PER_ADDRESS: 'ten' },
      'REGISTRATIONS_PER_ADDRESS must be a whole number of at least 1 (got "ten").',
    ],
    [{ FEEDBACK_RATE_LIMIT: 'x' }, 'FEEDBACK_RATE_LIMIT must be a whole number of at least 1 (got "x").'],
    [{ STEP_UP_MINUTES: '0' }, 'STEP_UP_MINUTES must be a whole number from 1 to 10080 (got "0").'],
    [{ STEP_UP_MINUTES: '7.5' }, 'STEP_UP_MINUTES must be a whole number from 1 to 10080 (got "7.5").'],
    [
      { STEP_UP_CLASSIFICATIONS: 'Secret,Top Secret' },
      'STEP_UP_CLASSIFICATIONS must be a comma-separated list of Confidential and Secret (got "Secret,Top Secret").',
    ],
    [
      { STEP_UP_CLASSIFICATIONS: 'Normal' },
      'STEP_UP_CLASSIFICATIONS must be a comma-separated list of Confidential and Secret (got "Normal").',
    ],
    [
      { LOG_LEVEL: 'verbose' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose").',
    ],
    [{ SERVE_WEB: 'no' }, 'SERVE_WEB must be true or false (got "no").'],
    [{ RUNTIME_METRICS: '1' }, 'RUNTIME_METRICS must be true or false (got "1").'],
    [{ JWT_SECRET_ROTATE: 'yes' }, 'JWT_SECRET_ROTATE must be true or false (got "yes").'],
    [
      { JWT_EXPIRES_IN: 'forever' },
      'JWT_EXPIRES_IN must be a duration with its unit, such as 8h, 30m or 7d (got "forever").',
    ],
    [
      { JWT_EXPIRES_IN: '3600' },
      'JWT_EXPIRES_IN must be a duration with its unit, such as 8h, 30m or 7d (got "3600").',
    ],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL must be a redis:// or rediss:// address (got "localhost:6379").'],
    [{ STORAGE: 'ftp' }, 'STORAGE must be "local" or "s3", not "ftp".'],
    [
      { MFA_REQUIRED_ROLES: 'admin,boss' },
      'MFA_REQUIRED_ROLES must be a comma-separated list of roles: admin, director, associateDirector, employee, pendingDirector (got "admin,boss"; not understood: "boss").',
    ],
    [{ MFA_FOR_CLEARED: 'yes' }, 'MFA_FOR_CLEARED must be true or false (got "yes").'],
    [{ STORAGE: 's3' }, 'STORAGE=s3 needs S3_BUCKET (the bucket that holds the uploads).'],
    [
      { STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' },
      'S3_ENDPOINT must be an http:// or https:// address, not "minio:9000".',
    ],
    [
      { STORAGE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'on' },
      'S3_FORCE_PATH_STYLE must be true or false (got "on").',
    ],
    [
      { STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' },
      'Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (to use an instance role).',
    ],
  ])('refuses %j', (env, message) => {
    expect(refusal(env)).toBe(message);
  });

  it('names every wrong variable at once', () => {
    const message = refusal({ PORT: 'abc', TRUST_PROXY: 'yes', JWT_SECRET: 'short' });
    expect(message).toContain('PORT must be');
    expect(message).toContain('TRUST_PROXY must be');
    expect(message).toContain('JWT_SECRET must be');
  });

  it('single sign-on is off without OIDC_ISSUER, and on with the client, the portal address and the defaults', () => {
    expect(load({}).oidc).toBeNull();
    const config = load({
      OIDC_ISSUER: 'https://parichay.example.gov.in/',
      OIDC_CLIENT_ID: 'portal',
      OIDC_CLIENT_SECRET: 's3cret',
      PORTAL_URL: 'https://portal.lab.example/',
      OIDC_ROLE_CLAIM: 'groups',
      OIDC_ROLE_MAP: 'admin=portal-admins; director=cn=directors,ou=groups;',
    });
    expect(config.portalUrl).toBe('https://portal.lab.example');
    expect(config.oidc).toEqual({
      issuer: 'https://parichay.example.gov.in/', // as written: it must match the provider's iss
      clientId: 'portal',
      clientSecret: 's3cret',
      scopes: 'openid email profile',
      roleClaim: 'groups',
      roleMap: [
        { role: 'admin', value: 'portal-admins' },
        { role: 'director', value: 'cn=directors,ou=groups' },
      ],
      label: { en: 'Sign in with single sign-on', hi: 'सिंगल साइन-ऑन से लॉग इन करें' },
      allowInsecure: false,
      redirectUri: 'https://portal.lab.example/api/auth/sso/callback',
    });
    const local = load({
      OIDC_ISSUER: 'http://127.0.0.1:9000',
      OIDC_CLIENT_ID: 'p',
      PORTAL_URL: 'http://localhost:3000',
    });
    expect(local.oidc).toMatchObject({ allowInsecure: true, clientSecret: undefined });
  });

  it('refuses OIDC settings that cannot work, naming the variable', () => {
    const sso = { OIDC_ISSUER: 'https://idp.example', OIDC_CLIENT_ID: 'portal', PORTAL_URL: 'https://portal.example' };
    expect(refusal({ ...sso, OIDC_ISSUER: 'http://idp.example' })).toMatch(
      /^OIDC_ISSUER must be an https:\/\/ address/,
    );
    expect(refusal({ ...sso, OIDC_ISSUER: 'not a url' })).toMatch(/^OIDC_ISSUER must be an https:\/\/ address/);
    expect(refusal({ ...sso, PORTAL_URL: 'portal.example' })).toMatch(/^PORTAL_URL must be an https:\/\/ address/);
    expect(refusal({ ...sso, OIDC_CLIENT_ID: '' })).toMatch(/without OIDC_CLIENT_ID/);
    expect(refusal({ ...sso, PORTAL_URL: '' })).toMatch(/^OIDC_ISSUER needs PORTAL_URL/);
    expect(refusal({ ...sso, OIDC_SCOPES: 'email profile' })).toMatch(/^OIDC_SCOPES must include openid/);
    expect(refusal({ ...sso, OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'boss=admins' })).toMatch(
      /^OIDC_ROLE_MAP must be role=claim-value pairs .* \(got "boss=admins"\)/,
    );
    expect(refusal({ ...sso, OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'admin' })).toMatch(/OIDC_ROLE_MAP must be/);
    expect(refusal({ ...sso, OIDC_ROLE_MAP: 'admin=admins' })).toMatch(/^OIDC_ROLE_MAP needs OIDC_ROLE_CLAIM/);
    expect(refusal({ OIDC_CLIENT_ID: 'portal' })).toMatch(/^OIDC_CLIENT_ID set without OIDC_ISSUER/);
  });
});

describe('the lab directory (LDAP_*, decision 062)', () => {
  const ldap = {
    LDAP_URL: 'ldaps://dc1.lab.local:636',
    LDAP_BIND_DN: 'cn=portal,ou=services,dc=lab,dc=local',
    LDAP_BIND_PASSWORD: 'service-secret',
    LDAP_USER_BASE: 'ou=people,dc=lab,dc=local',
  };

  it('is off without LDAP_URL', () => {
    expect(load({}).ldap).toBeUndefined();
  });

  it('reads the directory settings with their defaults, ranking the role groups', () => {
    const config = load({
      ...ldap,
      LDAP_ROLE_GROUPS:
        'employee=cn=staff,ou=groups,dc=lab,dc=local; admin=cn=portal-admins,ou=groups,dc=lab,dc=local;director=cn=dirs,dc=lab,dc=local',
      LDAP_GROUP_MAP: 'cn=fire-team,ou=groups,dc=lab,dc=local=Fire Safety',
    });
    expect(config.ldap).toMatchObject({
      url: 'ldaps://dc1.lab.local:636',
      startTls: false,
      ca: undefined,
      bindDn: 'cn=portal,ou=services,dc=lab,dc=local',
      userBase: 'ou=people,dc=lab,dc=local',
      userFilter: '(|(mail={login})(uid={login})(sAMAccountName={login}))',
      kind: 'openldap',
      roleGroups: [
        { role: 'admin', dn: 'cn=portal-admins,ou=groups,dc=lab,dc=local' },
        { role: 'director', dn: 'cn=dirs,dc=lab,dc=local' },
        { role: 'employee', dn: 'cn=staff,ou=groups,dc=lab,dc=local' },
      ],
      groupMap: [{ dn: 'cn=fire-team,ou=groups,dc=lab,dc=local', group: 'Fire Safety' }],
      disabledAttribute: 'pwdAccountLockedTime',
      checkSeconds: 30,
      only: false,
    });
  });

  it('reads the CA file', () => {
    const ca = path.join(dataDir, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
    expect(load({ ...ldap, LDAP_CA_FILE: ca }).ldap!.ca!.toString()).toContain('BEGIN CERTIFICATE');
  });

  it.each([
    [
      { LDAP_URL: 'http://dc1.lab.local' },
      'LDAP_URL must be an ldap:// or ldaps:// address such as ldaps://dc1.lab.local:636 (got "http://dc1.lab.local").',
    ],
    [{ ...ldap, LDAP_STARTTLS: 'yes' }, 'LDAP_STARTTLS must be true or false (got "yes").'],
    [
      { ...ldap, LDAP_USER_FILTER: '(uid=someone)' },
      'LDAP_USER_FILTER must be an LDAP filter in parentheses with {login} where the login goes (got "(uid=someone)").',
    ],
    [{ ...ldap, LDAP_KIND: 'novell' }, 'LDAP_KIND must be "ad" (Active Directory) or "openldap" (got "novell").'],
    [
      { ...ldap, LDAP_ROLE_GROUPS: 'boss=cn=bosses,dc=lab,dc=local' },
      'LDAP_ROLE_GROUPS must be role=group DN pairs separated by ";", the role one of admin, director, associate_director, employee (e.g. admin=cn=portal-admins,ou=groups,dc=lab,dc=local;employee=cn=staff,ou=groups,dc=lab,dc=local; got "boss=cn=bosses,dc=lab,dc=local").',
    ],
    [
      { ...ldap, LDAP_GROUP_MAP: 'Fire Safety' },
      'LDAP_GROUP_MAP must be group DN=research group pairs separated by ";", the research group by its name or id (e.g. cn=fire-team,ou=groups,dc=lab,dc=local=Fire Safety; got "Fire Safety").',
    ],
    [
      { ...ldap, LDAP_DISABLED_ATTRIBUTE: 'pwd locked' },
      'LDAP_DISABLED_ATTRIBUTE must be one attribute name such as pwdAccountLockedTime (got "pwd locked").',
    ],
    [{ ...ldap, LDAP_CHECK_SECONDS: '120' }, 'LDAP_CHECK_SECONDS must be a whole number from 1 to 60 (got "120").'],
    [{ ...ldap, LDAP_ONLY: 'yes' }, 'LDAP_ONLY must be true or false (got "yes").'],
    [
      { LDAP_USER_BASE: 'ou=people,dc=lab,dc=local', LDAP_ONLY: 'true' },
      'LDAP_USER_BASE, LDAP_ONLY set without LDAP_URL: set LDAP_URL too, or unset them.',
    ],
    [
      { LDAP_URL: 'ldap://dc1.lab.local' },
      'LDAP_URL needs LDAP_USER_BASE (where people are searched for, e.g. ou=people,dc=lab,dc=local).',
    ],
    [
      { ...ldap, LDAP_BIND_PASSWORD: '' },
      'Set both LDAP_BIND_DN and LDAP_BIND_PASSWORD (the lookup account), or neither (an anonymous lookup).',
    ],
    [
      { ...ldap, LDAP_STARTTLS: 'true' },
      'LDAP_STARTTLS=true is for an ldap:// address; an ldaps:// one is encrypted already.',
    ],
    [
      { ...ldap, LDAP_CA_FILE: '/nonexistent/ca.pem' },
      "LDAP_CA_FILE /nonexistent/ca.pem cannot be read (ENOENT). Point it at the directory's CA certificate (PEM).",
    ],
  ])('refuses %j', (env, message) => {
    expect(refusal(env)).toBe(message);
  });
});

describe('email through the lab relay (SMTP_URL, MAIL_FROM, SMTP_CA_FILE; decision 076)', () => {
  const mail = {
    SMTP_URL: 'smtp://mail.lab.local',
    MAIL_FROM: 'Lab Portal <portal@lab.example>',
    PORTAL_URL: 'https://portal.lab.example/',
  };

  it('is off without SMTP_URL', () => {
    expect(load({}).mail).toBeNull();
  });

  it('reads an smtp:// relay (STARTTLS when offered) on the submission port by default', () => {
    expect(load(mail).mail).toEqual({
      host: 'mail.lab.local',
      port: 587,
      secure: false,
      auth: undefined,
      relay: 'smtp://mail.lab.local',
      ca: undefined,
      from: 'Lab Portal <portal@lab.example>',
      portalUrl: 'https://portal.lab.example',
    });
  });

  it('reads an smtps:// relay with a percent-encoded user and password, never logging the password', () => {
    const config = load({
      ...mail,
      SMTP_URL: 'smtps://portal%40lab:p%40ss%2Fw%3Ard@[::1]:2465',
      MAIL_FROM: 'portal@lab.example',
    });
    expect(config.mail).toMatchObject({
      host: '::1',
      port: 2465,
      secure: true,
      auth: { user: 'portal@lab', pass: 'p@ss/w:rd' },
      relay: 'smtps://portal%40lab@[::1]:2465',
      from: 'portal@lab.example',
    });
    expect(load({ ...mail, SMTP_URL: 'smtps://relay.lab.local' }).mail).toMatchObject({ port: 465, secure: true });
  });

  it('reads the CA file', () => {
    const ca = path.join(dataDir, 'relay-ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
    expect(load({ ...mail, SMTP_CA_FILE: ca }).mail!.ca!.toString()).toContain('BEGIN CERTIFICATE');
  });

  it.each([
    [
      { ...mail, SMTP_URL: 'http://mail.lab.local' },
      'SMTP_URL must be an smtp:// or smtps:// address such as smtp://mail.lab.local:587 or smtps://user:password@mail.lab.local:465 (percent-encode a password that holds @, : or /).',
    ],
    [
      { ...mail, SMTP_URL: 'smtp://user:secret-word@mail.lab.local/inbox' },
      'SMTP_URL must be an smtp:// or smtps:// address such as smtp://mail.lab.local:587 or smtps://user:password@mail.lab.local:465 (percent-encode a password that holds @, : or /).',
    ],
    [
      { ...mail, MAIL_FROM: 'Lab, Portal <portal@lab.example>' },
      'MAIL_FROM must be an email address, alone or as Name <address> (e.g. Lab Portal <portal@lab.example>; got "Lab, Portal <portal@lab.example>").',
    ],
    [
      { ...mail, MAIL_FROM: '' },
      'SMTP_URL needs MAIL_FROM, the sender of the mail (e.g. Lab Portal <portal@lab.example>).',
    ],
    [
      { ...mail, PORTAL_URL: '' },
      'SMTP_URL needs PORTAL_URL, the address people open the portal at: every link in a mail starts with it.',
    ],
    [{ MAIL_FROM: 'portal@lab.example' }, 'MAIL_FROM set without SMTP_URL: set SMTP_URL too, or unset them.'],
    [
      { ...mail, SMTP_CA_FILE: '/nonexistent/relay.pem' },
      "SMTP_CA_FILE /nonexistent/relay.pem cannot be read (ENOENT). Point it at the mail relay's CA certificate (PEM).",
    ],
  ])('refuses %j', (env, message) => {
    expect(refusal(env)).toBe(message);
    expect(message).not.toContain('secret-word');
  });
});
