import { describe, expect, it } from 'vitest';

import { configLoader } from './config.test-helpers.ts';
import { loadConfig } from './config.ts';

const { base, dataDir, load, refusal } = configLoader();

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
