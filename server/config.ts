import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP, isIPv4 } from 'node:net';
import path from 'node:path';

import { z } from 'zod';

import { type Role, ROLES } from '#shared/constants.ts';

const MB = 1024 * 1024;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** DATABASE_OWNER_URL: with DATABASE_URL, the role that owns the database and migrates it (decision 093). */
  databaseOwnerUrl: string | undefined;
  jwtSecret: string;
  /** What loading this configuration created (DATA_DIR, the generated jwt-secret): a start that fails removes it. */
  createdAtLoad: string[];
  /** How long a sign-in lasts. */
  jwtExpiresIn: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** Largest ordinary upload (documents, photos, letters). */
  uploadMaxBytes: number;
  /** Largest repository upload (software and trial repositories, group videos). */
  largeUploadMaxBytes: number;
  /** Failed sign-ins of one account in a row before it waits 30 s, then longer (decision 014). */
  loginAccountFailures: number;
  /** Failed sign-ins from one client address in a day before it waits (decision 014). */
  loginAddressFailures: number;
  /** Registrations accepted from one client address per hour (decision 014). */
  registrationsPerAddress: number;
  /** Feedback messages allowed per client address per hour (FEEDBACK_RATE_LIMIT). */
  feedbackRateLimit: number;
  /**
   * The fresh check before classified letters (issue 30 item 4, decision 066): opening, downloading or marking a letter
   * of one of `classifications` (STEP_UP_CLASSIFICATIONS, default Secret) needs a sign-in or a check within the last
   * `minutes` (STEP_UP_MINUTES, default 15).
   */
  stepUp: StepUpConfig;
  /**
   * AUDIT_RETENTION_DAYS (default 180, never less: CERT-In's directions of April 2022 keep logs for 180 days): audit
   * events older than this are purged each night, after a checkpoint naming the boundary (decision 068).
   */
  auditRetentionDays: number;
  /** AUDIT_CHECKPOINT_MINUTES (default 60): an audit checkpoint this often, as well as nightly (decision 093). */
  auditCheckpointMinutes: number;
  /**
   * Circulars that must be acknowledged (issue 31 item 2, decision 074): each person still pending is reminded under
   * the bell this many days before their due date (ACK_REMINDER_DAYS, default 2), and again the day after it.
   */
  acknowledgementReminderDays: number;
  /** The hour (0–23, India time) of the morning notices and the daily digest (DIGEST_HOUR, default 9; decision 082). */
  digestHour: number;
  /** An overdue letter is also told to the holder's group head this many days after its due date (DAK_ESCALATE_DAYS, 3). */
  dakEscalateDays: number;
  /**
   * Document previews (issue 33, decision 084): Office files up to `maxBytes` (PREVIEW_MAX_BYTES, default 30 MB) are
   * converted to PDF by LibreOffice at `soffice` (SOFFICE_PATH, default soffice on the PATH), killed after
   * `timeoutSeconds` (PREVIEW_TIMEOUT_SECONDS, default 120); PDFs up to `maxBytes` get the viewer's update (088).
   */
  preview: { maxBytes: number; timeoutSeconds: number; soffice: string };
  /** A classified PDF's stamp taking longer than this is stopped and the download refused (STAMP_TIMEOUT_SECONDS, 096). */
  stampTimeoutSeconds: number;
  /**
   * The sandbox every parser of an uploaded file runs in (decision 091, server/lib/sandbox.ts): bubblewrap at `bwrap`
   * (BWRAP_PATH, default bwrap on the PATH), each run held to `cpuSeconds` of CPU (SANDBOX_CPU_SECONDS, 120) and
   * `memoryMb` of memory (SANDBOX_MEMORY_MB, 2048); a PDF of more than `maxPages` pages (SANDBOX_MAX_PAGES, 5000)
   * gets no viewer's update, and an Office file converted to one has no preview.
   */
  sandbox: { bwrap: string; cpuSeconds: number; memoryMb: number; maxPages: number };
  logLevel: string;
  /** A Redis server for the sign-in and registration counters shared by several nodes (REDIS_URL); else PostgreSQL. */
  redisUrl: string | undefined;
  /**
   * LOG_FORMAT: `pretty` (coloured lines for a person at a terminal, pino-pretty) or `json` (one JSON object a line,
   * for log collectors). Default: pretty when stdout is a terminal and NODE_ENV is not production, else json.
   */
  logFormat: 'pretty' | 'json';
  /**
   * Which proxies may set X-Forwarded-For/-Proto (TRUST_PROXY): "loopback" by default (a reverse proxy on the same
   * host), "true"/"false", or a comma-separated list of addresses, CIDR ranges and the names loopback, linklocal and
   * uniquelocal (what proxy-addr compiles). Trusting every client would let anyone dodge the sign-in throttle.
   */
  trustProxy: boolean | string;
  /** Serve the built web app from dist/web. */
  serveWeb: boolean;
  /** Where the built web app is (WEB_ROOT; default dist/web). The e2e server serves its own copy of the build. */
  webRoot: string | undefined;
  /** How many reads (GET, HEAD) this process works on at once; the others wait their turn. 0: no limit. */
  readsAtOnce: number;
  /** RUNTIME_METRICS=true: GET /api/health/runtime answers event-loop delay and memory (for `npm run bench:load`). */
  runtimeMetrics: boolean;
  /** Where uploaded files live (STORAGE): the local disk under DATA_DIR/uploads, or an S3-compatible store. */
  storage: StorageConfig;
  /** JWT_SECRET_ROTATE=true: record this node's JWT secret as the one every node must use (decision 052). */
  jwtSecretRotate: boolean;
  /** BACKUP_KEY: backups are signed with it, and a restore accepts only archives signed with it (decision 027). */
  backupKey: string | undefined;
  /**
   * MFA_REQUIRED_ROLES: the roles that must sign in with a second factor (issue 30 item 3, decision 064). Empty by
   * default: the spec's sign-in (a token and a user) stays as it is until an installation chooses.
   */
  mfaRequiredRoles: Role[];
  /** MFA_FOR_CLEARED=true: everyone cleared for Confidential and Secret letters must have a second factor too. */
  mfaForCleared: boolean;
  /**
   * PORTAL_URL: the address people open the portal at (https://portal.lab.example); single sign-on's redirect URI.
   * Passkeys are bound to its host name (the WebAuthn RP ID) and accepted only from its origin (decision 065); unset,
   * each request's own host and scheme (X-Forwarded-Host and -Proto from a TRUST_PROXY proxy).
   */
  portalUrl: string | undefined;
  /** Single sign-on over OpenID Connect (OIDC_*, decision 063), or null when OIDC_ISSUER is unset. */
  oidc: OidcConfig | null;
  /** Sign-in with the lab's directory (LDAP_URL and the other LDAP_* variables; decision 062), unset without LDAP_URL. */
  ldap: LdapConfig | undefined;
  /** Email through the lab's mail relay (SMTP_URL, MAIL_FROM, SMTP_CA_FILE; decision 076), or null: nothing is sent. */
  mail: MailConfig | null;
}

/** SMTP_URL and MAIL_FROM (README "Configuration", docs/deployment.md "Email through the lab's mail relay"). */
export interface MailConfig {
  /** The relay from SMTP_URL: `smtps://` is TLS from the start; `smtp://` upgrades with STARTTLS when offered. */
  host: string;
  port: number;
  secure: boolean;
  /** The user and password in SMTP_URL (percent-decoded), if any. */
  auth: { user: string; pass: string } | undefined;
  /** SMTP_URL without its password, for the log. */
  relay: string;
  /** SMTP_CA_FILE's contents: the CA certificate(s) the relay's TLS certificate is checked against. */
  ca: Buffer | undefined;
  /** MAIL_FROM: the sender, `portal@lab.example` or `Lab Portal <portal@lab.example>`. */
  from: string;
  /** PORTAL_URL: every link in a mail starts with it. */
  portalUrl: string;
}

/** The portal's roles a directory group may give (spec §9), most powerful first: a person in several gets the first. */
export const DIRECTORY_ROLES = ['admin', 'director', 'associate_director', 'employee'] as const;
export type DirectoryRole = (typeof DIRECTORY_ROLES)[number];

/** LDAP_* (README "Configuration", decision 062). */
export interface LdapConfig {
  /** LDAP_URL: ldap://host:389 or ldaps://host:636. */
  url: string;
  /** LDAP_STARTTLS: upgrade an ldap:// connection with StartTLS before binding. */
  startTls: boolean;
  /** LDAP_CA_FILE's contents: the CA certificate(s) the directory's TLS certificate is checked against. */
  ca: Buffer | undefined;
  /** LDAP_BIND_DN and LDAP_BIND_PASSWORD: the service account that looks people up (unset: an anonymous lookup). */
  bindDn: string | undefined;
  bindPassword: string | undefined;
  /** LDAP_USER_BASE: where people are searched for (the whole subtree). */
  userBase: string;
  /** LDAP_USER_FILTER, with `{login}` where the (RFC 4515-escaped) login goes. */
  userFilter: string;
  /** LDAP_KIND: `ad` (Active Directory: nesting by the in-chain rule, userAccountControl) or `openldap`. */
  kind: 'ad' | 'openldap';
  /** LDAP_ROLE_GROUPS: directory group DN → portal role, in the order DIRECTORY_ROLES ranks them. */
  roleGroups: { dn: string; role: DirectoryRole }[];
  /** LDAP_GROUP_MAP: directory group DN → research group (the portal group's name or id), first match wins. */
  groupMap: { dn: string; group: string }[];
  /** LDAP_DISABLED_ATTRIBUTE (OpenLDAP): present on an entry = the person is disabled; default pwdAccountLockedTime. */
  disabledAttribute: string;
  /** LDAP_CHECK_SECONDS: how often people with live sessions are checked against the directory again. */
  checkSeconds: number;
  /** LDAP_ONLY: the portal's own passwords sign in admins only (the break-glass accounts). */
  only: boolean;
}

/** The portal roles a provider's role claim may map to (OIDC_ROLE_MAP); pending_director is the portal's own step. */
export const MAPPABLE_ROLES = ['employee', 'director', 'associate_director', 'admin'] as const;
export type MappableRole = (typeof MAPPABLE_ROLES)[number];

/** OIDC_* (README "Single sign-on", decision 063). */
export interface OidcConfig {
  /** OIDC_ISSUER: the provider's issuer identifier; its discovery document is read once, at start or on first use. */
  issuer: string;
  clientId: string;
  /** OIDC_CLIENT_SECRET; unset: a public client (PKCE alone). */
  clientSecret: string | undefined;
  /** OIDC_SCOPES, space-separated (default `openid email profile`). */
  scopes: string;
  /** OIDC_ROLE_CLAIM: the claim (a string or a list of strings) whose values OIDC_ROLE_MAP maps to portal roles. */
  roleClaim: string | undefined;
  /** OIDC_ROLE_MAP (`role=claim value;…`): claim value → portal role, in the order written (the first that maps wins). */
  roleMap: { value: string; role: MappableRole }[];
  /** The sign-in button's words (OIDC_BUTTON_LABEL_EN, OIDC_BUTTON_LABEL_HI). */
  label: { en: string; hi: string };
  /** `http://localhost` issuers (a provider on this machine, tests) are let through; any other must be https. */
  allowInsecure: boolean;
  /** `${PORTAL_URL}/api/auth/sso/callback`: the redirect URI registered at the provider. */
  redirectUri: string;
}

/** STORAGE=s3 and its S3_* variables (README "Configuration", docs/deployment.md). */
export interface S3StorageConfig {
  driver: 's3';
  /** S3_ENDPOINT: MinIO, Ceph RGW, another provider; unset for AWS itself. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY; unset: the AWS SDK's own chain (environment, instance role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** S3_FORCE_PATH_STYLE: http://host/bucket/key rather than http://bucket.host/key (MinIO, Ceph). */
  forcePathStyle: boolean;
}
export type StorageConfig = { driver: 'local' } | S3StorageConfig;

/** The JWT secret: JWT_SECRET, else one generated on first start and kept in DATA_DIR. */
function jwtSecret(dataDir: string, fromEnv: string | undefined, created: string[]): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another node on a shared DATA_DIR wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
  created.push(file);
  return secret;
}

/** A setting the operator must fix before the portal can start. */
export class ConfigError extends Error {}

// ---------------------------------------------------------------------------------------------------------------
// The environment, checked by one zod schema (README "Configuration"). Every refusal names its variable and what it
// got, so "Lab Portal cannot start: ..." (main.ts) tells the operator which line of their environment to fix. An
// empty variable counts as unset (a service file's `PORT=` means the default).
// ---------------------------------------------------------------------------------------------------------------

type Ctx = z.RefinementCtx;

/** Records the refusal; zod then reports it with the others. */
function refuse(ctx: Ctx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER as never;
}

/** One variable: unset or empty → `parse(undefined)`, else `parse(value)`. */
function variable<T>(parse: (value: string | undefined, ctx: Ctx) => T) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => parse(value === '' ? undefined : value, ctx));
}

const text = (fallback?: string) => variable((v) => v ?? fallback);

function wholeNumber(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) {
  return variable((v, ctx) => {
    if (v === undefined) return fallback;
    const n = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (n >= min && n <= max) return n;
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    return refuse(ctx, `${name} must be a whole number ${range} (got "${v}").`);
  });
}

/** The classifications a fresh check may guard (spec §5 Letters: Normal, Confidential, Secret; Normal never). */
export const STEP_UP_CLASSIFICATION_NAMES = ['Confidential', 'Secret'] as const;
export type StepUpClassification = (typeof STEP_UP_CLASSIFICATION_NAMES)[number];
export interface StepUpConfig {
  minutes: number;
  classifications: readonly StepUpClassification[];
}

const stepUpClassifications = variable((v, ctx): StepUpClassification[] => {
  if (v === undefined) return ['Secret'];
  const names = v
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const wrong = names.filter((n) => !(STEP_UP_CLASSIFICATION_NAMES as readonly string[]).includes(n));
  if (!names.length || wrong.length) {
    return refuse(
      ctx,
      `STEP_UP_CLASSIFICATIONS must be a comma-separated list of Confidential and Secret (got "${v}").`,
    );
  }
  return [...new Set(names as StepUpClassification[])];
});

function byteSize(name: string, fallback: number) {
  return variable((v, ctx) => {
    if (v === undefined) return fallback;
    const n = v.trim() === '' ? NaN : Number(v);
    if (Number.isFinite(n) && n >= 1) return Math.floor(n);
    return refuse(ctx, `${name} must be a number of bytes of at least 1 (got "${v}").`);
  });
}

function flag(name: string, fallback: boolean) {
  return variable((v, ctx) => {
    if (v === undefined) return fallback;
    if (v === 'true' || v === 'false') return v === 'true';
    return refuse(ctx, `${name} must be true or false (got "${v}").`);
  });
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of a TRUST_PROXY list, as proxy-addr compiles it: a name, an address, address/prefix, IPv4/netmask. */
function proxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (range === undefined) return true;
  if (/^\d+$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIPv4(range);
}

const trustProxy = variable((v, ctx): boolean | string => {
  if (v === undefined) return 'loopback';
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^\d+$/.test(v.trim())) {
    // Fastify 5 trusts no proxy for a bare hop count (it cannot check the nearest proxy's address), so a number would
    // silently do nothing: refuse it.
    return refuse(
      ctx,
      `TRUST_PROXY must name the proxies, not count them (got "${v}"): Fastify trusts no proxy for a hop count. Use true, false, or addresses such as 10.0.0.5,10.1.0.0/16 or loopback.`,
    );
  }
  const entries = v.split(',').map((e) => e.trim());
  const wrong = entries.filter((e) => !proxyEntry(e));
  if (wrong.length === 0) return entries.join(',');
  return refuse(
    ctx,
    `TRUST_PROXY must be true, false, or a comma-separated list of IP addresses, CIDR ranges (10.0.0.0/8) and the names loopback, linklocal, uniquelocal (got "${v}"; not understood: ${wrong.map((w) => `"${w}"`).join(', ')}).`,
  );
});

/** Shortest JWT_SECRET accepted: 32 characters, 256 bits for an HS256 key of random letters and digits. */
export const JWT_SECRET_MIN_LENGTH = 32;

// The durations fast-jwt (through @fastify/jwt and @lukeed/ms) understands, with their unit: "8h", "30m", "7 days".
// A bare number would be milliseconds there (JWT_EXPIRES_IN=3600 a 3.6-second sign-in), so it is refused.
const DURATION =
  /^\d*\.?\d+ *(ms|msecs?|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|y|yrs?|years?)$/i;

/**
 * The role names MFA_REQUIRED_ROLES accepts: the README's (admin, director, associateDirector) and the database's
 * (associate_director), in any case.
 */
const ROLE_NAMES = new Map<string, Role>(
  ROLES.flatMap((role): [string, Role][] => [
    [role, role],
    [role.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()).toLowerCase(), role],
  ]),
);

const roleList = variable((v, ctx): Role[] => {
  if (v === undefined) return [];
  const names = v
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const wrong = names.filter((n) => !ROLE_NAMES.has(n.toLowerCase()));
  if (wrong.length === 0) return [...new Set(names.map((n) => ROLE_NAMES.get(n.toLowerCase())!))];
  return refuse(
    ctx,
    `MFA_REQUIRED_ROLES must be a comma-separated list of roles: admin, director, associateDirector, employee, pendingDirector (got "${v}"; not understood: ${wrong.map((w) => `"${w}"`).join(', ')}).`,
  );
});

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An absolute http(s) address; plain http only for this machine (a provider in a test, a portal in development).
 * `base`: the portal's own address, kept without a trailing slash; an issuer is kept as written (it must match the
 * provider's `iss` to the letter, and some end in "/").
 */
function webAddress(name: string, base = false) {
  return variable((v, ctx) => {
    if (v === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      return refuse(ctx, `${name} must be an https:// address (got "${v}").`);
    }
    const loopback = LOOPBACK_HOSTS.has(url.hostname);
    if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) return base ? v.replace(/\/+$/, '') : v;
    return refuse(ctx, `${name} must be an https:// address (got "${v}"); http:// is accepted for localhost only.`);
  });
}

/**
 * OIDC_ROLE_MAP: `role=claim value;role=claim value` (admin=portal-admins;director=directors), each role one of
 * MAPPABLE_ROLES; a claim value may itself hold "=" (a group's DN), so only the first "=" divides.
 */
const roleMap = variable((v, ctx) => {
  if (v === undefined) return [];
  const entries: { value: string; role: MappableRole }[] = [];
  for (const part of v.split(';').map((p) => p.trim())) {
    if (!part) continue;
    const at = part.indexOf('=');
    const role = part.slice(0, at).trim() as MappableRole;
    const value = part.slice(at + 1).trim();
    if (at < 1 || !value || !MAPPABLE_ROLES.includes(role)) {
      return refuse(
        ctx,
        `OIDC_ROLE_MAP must be role=claim-value pairs separated by ";", each role one of ${MAPPABLE_ROLES.join(', ')} (got "${part}").`,
      );
    }
    entries.push({ value, role });
  }
  return entries;
});

/** The shortest retention of the audit trail (CERT-In's directions of April 2022: 180 days), and the default. */
export const AUDIT_RETENTION_MIN_DAYS = 180;
/** A hundred years: longer is "never", and would not make a date. */
const AUDIT_RETENTION_MAX_DAYS = 36_500;

/**
 * How often an audit checkpoint may be written (AUDIT_CHECKPOINT_MINUTES): a cron line in India time must say it, so a
 * divisor of an hour or of a day, and no oftener than every 5 minutes (each is a file and an event).
 */
export const AUDIT_CHECKPOINT_MINUTES = [5, 10, 15, 20, 30, 60, 120, 180, 240, 360, 480, 720, 1440];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const envSchema = z.object({
  PORT: wholeNumber('PORT', 3000, 0, 65535),
  HOST: text('0.0.0.0'),
  DATA_DIR: text('./data'),
  DATABASE_URL: text(),
  DATABASE_OWNER_URL: text(),
  JWT_SECRET: variable((v, ctx) => {
    if (v === undefined || v.length >= JWT_SECRET_MIN_LENGTH) return v;
    return refuse(
      ctx,
      `JWT_SECRET must be at least ${JWT_SECRET_MIN_LENGTH} characters long (it has ${v.length}). Use a long random value (openssl rand -base64 48), or unset it to have one generated and kept in DATA_DIR/jwt-secret.`,
    );
  }),
  JWT_SECRET_ROTATE: flag('JWT_SECRET_ROTATE', false),
  BACKUP_KEY: variable((v, ctx) => {
    if (v === undefined || v.length >= JWT_SECRET_MIN_LENGTH) return v;
    return refuse(
      ctx,
      `BACKUP_KEY must be at least ${JWT_SECRET_MIN_LENGTH} characters long (it has ${v.length}). Use a long random value (openssl rand -base64 48), kept apart from the backups.`,
    );
  }),
  JWT_EXPIRES_IN: variable((v, ctx) => {
    if (v === undefined) return '8h';
    if (DURATION.test(v.trim()) && parseFloat(v) > 0) return v.trim();
    return refuse(ctx, `JWT_EXPIRES_IN must be a duration with its unit, such as 8h, 30m or 7d (got "${v}").`);
  }),
  ADMIN_EMAIL: text(),
  ADMIN_PASSWORD: text(),
  UPLOAD_MAX_BYTES: byteSize('UPLOAD_MAX_BYTES', 25 * MB),
  LARGE_UPLOAD_MAX_BYTES: byteSize('LARGE_UPLOAD_MAX_BYTES', 2048 * MB),
  LOGIN_ACCOUNT_FAILURES: wholeNumber('LOGIN_ACCOUNT_FAILURES', 5, 1),
  LOGIN_ADDRESS_FAILURES: wholeNumber('LOGIN_ADDRESS_FAILURES', 100, 1),
  REGISTRATIONS_PER_ADDRESS: wholeNumber('REGISTRATIONS_PER_ADDRESS', 10, 1),
  FEEDBACK_RATE_LIMIT: wholeNumber('FEEDBACK_RATE_LIMIT', 5, 1),
  STEP_UP_MINUTES: wholeNumber('STEP_UP_MINUTES', 15, 1, 7 * 24 * 60),
  STEP_UP_CLASSIFICATIONS: stepUpClassifications,
  ACK_REMINDER_DAYS: wholeNumber('ACK_REMINDER_DAYS', 2, 1, 365),
  DIGEST_HOUR: wholeNumber('DIGEST_HOUR', 9, 0, 23),
  DAK_ESCALATE_DAYS: wholeNumber('DAK_ESCALATE_DAYS', 3, 1, 365),
  PREVIEW_MAX_BYTES: byteSize('PREVIEW_MAX_BYTES', 30 * MB),
  PREVIEW_TIMEOUT_SECONDS: wholeNumber('PREVIEW_TIMEOUT_SECONDS', 120, 1, 3600),
  SOFFICE_PATH: text(),
  STAMP_TIMEOUT_SECONDS: wholeNumber('STAMP_TIMEOUT_SECONDS', 30, 1, 600),
  BWRAP_PATH: text(),
  SANDBOX_CPU_SECONDS: wholeNumber('SANDBOX_CPU_SECONDS', 120, 1, 3600),
  SANDBOX_MEMORY_MB: wholeNumber('SANDBOX_MEMORY_MB', 2048, 256, 65536),
  SANDBOX_MAX_PAGES: wholeNumber('SANDBOX_MAX_PAGES', 5000, 1, 1_000_000),
  READS_AT_ONCE: wholeNumber('READS_AT_ONCE', 8, 0, 10000),
  AUDIT_RETENTION_DAYS: variable((v, ctx) => {
    if (v === undefined) return AUDIT_RETENTION_MIN_DAYS;
    const days = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!(days <= AUDIT_RETENTION_MAX_DAYS)) {
      return refuse(
        ctx,
        `AUDIT_RETENTION_DAYS must be a whole number of days from ${AUDIT_RETENTION_MIN_DAYS} to ${AUDIT_RETENTION_MAX_DAYS} (got "${v}").`,
      );
    }
    if (days >= AUDIT_RETENTION_MIN_DAYS) return days;
    return refuse(
      ctx,
      `AUDIT_RETENTION_DAYS must be at least ${AUDIT_RETENTION_MIN_DAYS} days, as CERT-In's directions of April 2022 require (got "${v}").`,
    );
  }),
  AUDIT_CHECKPOINT_MINUTES: variable((v, ctx) => {
    if (v === undefined) return 60;
    const minutes = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (AUDIT_CHECKPOINT_MINUTES.includes(minutes)) return minutes;
    return refuse(ctx, `AUDIT_CHECKPOINT_MINUTES must be one of ${AUDIT_CHECKPOINT_MINUTES.join(', ')} (got "${v}").`);
  }),
  LOG_LEVEL: variable((v, ctx) => {
    if (v === undefined) return 'info';
    if (LOG_LEVELS.includes(v)) return v;
    return refuse(ctx, `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${v}").`);
  }),
  LOG_FORMAT: variable((v, ctx) => {
    if (v === undefined || v === 'pretty' || v === 'json') return v;
    return refuse(ctx, `Invalid LOG_FORMAT: ${v} (use pretty or json).`);
  }),
  NODE_ENV: text(),
  REDIS_URL: variable((v, ctx) => {
    if (v === undefined || /^rediss?:\/\/./.test(v)) return v;
    return refuse(ctx, `REDIS_URL must be a redis:// or rediss:// address (got "${v}").`);
  }),
  TRUST_PROXY: trustProxy,
  SERVE_WEB: flag('SERVE_WEB', true),
  WEB_ROOT: text(),
  RUNTIME_METRICS: flag('RUNTIME_METRICS', false),
  STORAGE: variable((v, ctx) => {
    const driver = (v ?? 'local').toLowerCase();
    if (driver === 'local' || driver === 's3') return driver;
    return refuse(ctx, `STORAGE must be "local" or "s3", not "${v}".`);
  }),
  S3_BUCKET: text(),
  S3_ENDPOINT: variable((v, ctx) => {
    if (v === undefined || /^https?:\/\//.test(v)) return v;
    return refuse(ctx, `S3_ENDPOINT must be an http:// or https:// address, not "${v}".`);
  }),
  S3_REGION: text('us-east-1'),
  S3_ACCESS_KEY_ID: text(),
  S3_SECRET_ACCESS_KEY: text(),
  LDAP_URL: variable((v, ctx) => {
    if (v === undefined || /^ldaps?:\/\/[^/\s]+\/?$/i.test(v.trim())) return v?.trim();
    return refuse(
      ctx,
      `LDAP_URL must be an ldap:// or ldaps:// address such as ldaps://dc1.lab.local:636 (got "${v}").`,
    );
  }),
  LDAP_STARTTLS: flag('LDAP_STARTTLS', false),
  LDAP_CA_FILE: text(),
  LDAP_BIND_DN: text(),
  LDAP_BIND_PASSWORD: text(),
  LDAP_USER_BASE: text(),
  LDAP_USER_FILTER: variable((v, ctx) => {
    if (v === undefined) return '(|(mail={login})(uid={login})(sAMAccountName={login}))';
    if (v.includes('{login}') && v.trim().startsWith('(') && v.trim().endsWith(')')) return v.trim();
    return refuse(
      ctx,
      `LDAP_USER_FILTER must be an LDAP filter in parentheses with {login} where the login goes (got "${v}").`,
    );
  }),
  LDAP_KIND: variable((v, ctx) => {
    const kind = (v ?? 'openldap').toLowerCase();
    if (kind === 'ad' || kind === 'openldap') return kind;
    return refuse(ctx, `LDAP_KIND must be "ad" (Active Directory) or "openldap" (got "${v}").`);
  }),
  LDAP_ROLE_GROUPS: variable((v, ctx) => {
    const pairs = dnPairs(v);
    const wrong = pairs.filter((p) => !p || !(DIRECTORY_ROLES as readonly string[]).includes(p.key));
    if (wrong.length === 0) {
      const roleGroups = (pairs as DnPair[]).map((p) => ({ role: p.key as DirectoryRole, dn: p.dn }));
      return roleGroups.sort((a, b) => DIRECTORY_ROLES.indexOf(a.role) - DIRECTORY_ROLES.indexOf(b.role));
    }
    return refuse(
      ctx,
      `LDAP_ROLE_GROUPS must be role=group DN pairs separated by ";", the role one of ${DIRECTORY_ROLES.join(', ')} (e.g. admin=cn=portal-admins,ou=groups,dc=lab,dc=local;employee=cn=staff,ou=groups,dc=lab,dc=local; got "${v}").`,
    );
  }),
  LDAP_GROUP_MAP: variable((v, ctx) => {
    // Written group DN=portal group; the DN holds "=" itself, so the portal group is what follows the last "=".
    const entries = (v ?? '')
      .split(';')
      .map((e) => e.trim())
      .filter(Boolean);
    const parsed = entries.map((e) => {
      const at = e.lastIndexOf('=');
      const dn = e.slice(0, at).trim();
      const group = e.slice(at + 1).trim();
      return at > 0 && dn.includes('=') && group ? { dn, group } : null;
    });
    if (parsed.every(Boolean)) return parsed as { dn: string; group: string }[];
    return refuse(
      ctx,
      `LDAP_GROUP_MAP must be group DN=research group pairs separated by ";", the research group by its name or id (e.g. cn=fire-team,ou=groups,dc=lab,dc=local=Fire Safety; got "${v}").`,
    );
  }),
  LDAP_DISABLED_ATTRIBUTE: variable((v, ctx) => {
    if (v === undefined) return 'pwdAccountLockedTime';
    if (/^[A-Za-z][A-Za-z0-9-]*$/.test(v.trim())) return v.trim();
    return refuse(ctx, `LDAP_DISABLED_ATTRIBUTE must be one attribute name such as pwdAccountLockedTime (got "${v}").`);
  }),
  LDAP_CHECK_SECONDS: wholeNumber('LDAP_CHECK_SECONDS', 30, 1, 60),
  LDAP_ONLY: flag('LDAP_ONLY', false),
  MFA_REQUIRED_ROLES: roleList,
  MFA_FOR_CLEARED: flag('MFA_FOR_CLEARED', false),
  S3_FORCE_PATH_STYLE: variable((v, ctx) => {
    if (v === undefined || v === 'true' || v === 'false') return v === undefined ? undefined : v === 'true';
    return refuse(ctx, `S3_FORCE_PATH_STYLE must be true or false (got "${v}").`);
  }),
  PORTAL_URL: webAddress('PORTAL_URL', true),
  SMTP_URL: variable((v, ctx) => {
    if (v === undefined) return undefined;
    let url: URL | undefined;
    try {
      url = new URL(v.trim());
    } catch {
      url = undefined;
    }
    if (url && (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname && url.pathname.length <= 1) {
      return url;
    }
    // The value may hold a password: the refusal names its scheme and host only.
    return refuse(
      ctx,
      'SMTP_URL must be an smtp:// or smtps:// address such as smtp://mail.lab.local:587 or smtps://user:password@mail.lab.local:465 (percent-encode a password that holds @, : or /).',
    );
  }),
  MAIL_FROM: variable((v, ctx) => {
    if (v === undefined) return undefined;
    // An address, alone or after a display name in angle brackets; a display name with a comma or quote is refused
    // (it would need quoting in the header).
    if (/^(?:[^<>",\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(v.trim())) return v.trim();
    return refuse(
      ctx,
      `MAIL_FROM must be an email address, alone or as Name <address> (e.g. Lab Portal <portal@lab.example>; got "${v}").`,
    );
  }),
  SMTP_CA_FILE: text(),
  OIDC_ISSUER: webAddress('OIDC_ISSUER'),
  OIDC_CLIENT_ID: text(),
  OIDC_CLIENT_SECRET: text(),
  OIDC_SCOPES: variable((v, ctx) => {
    const scopes = (v ?? 'openid email profile').trim().split(/\s+/);
    if (scopes.includes('openid')) return scopes.join(' ');
    return refuse(ctx, `OIDC_SCOPES must include openid (got "${v}").`);
  }),
  OIDC_ROLE_CLAIM: text(),
  OIDC_ROLE_MAP: roleMap,
  OIDC_BUTTON_LABEL_EN: text('Sign in with single sign-on'),
  OIDC_BUTTON_LABEL_HI: text('सिंगल साइन-ऑन से लॉग इन करें'),
});

type Env = z.output<typeof envSchema>;

interface DnPair {
  key: string;
  dn: string;
}
/** "key=dn;key=dn" (LDAP_ROLE_GROUPS): null for an entry that is not one. */
function dnPairs(v: string | undefined): (DnPair | null)[] {
  return (v ?? '')
    .split(';')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((e) => {
      const at = e.indexOf('=');
      const key = e.slice(0, at).trim().toLowerCase();
      const dn = e.slice(at + 1).trim();
      return at > 0 && dn.includes('=') ? { key, dn } : null;
    });
}

const LDAP_NAMES = [
  'LDAP_STARTTLS',
  'LDAP_CA_FILE',
  'LDAP_BIND_DN',
  'LDAP_BIND_PASSWORD',
  'LDAP_USER_BASE',
  'LDAP_ROLE_GROUPS',
  'LDAP_GROUP_MAP',
  'LDAP_ONLY',
] as const;

/** The directory's settings, checked together (decision 062): undefined when LDAP_URL is unset. */
function ldapConfig(env: Env, raw: NodeJS.ProcessEnv): LdapConfig | undefined {
  if (!env.LDAP_URL) {
    const stray = LDAP_NAMES.filter((name) => raw[name] && raw[name] !== 'false');
    if (stray.length)
      throw new ConfigError(`${stray.join(', ')} set without LDAP_URL: set LDAP_URL too, or unset them.`);
    return undefined;
  }
  if (!env.LDAP_USER_BASE) {
    throw new ConfigError(
      'LDAP_URL needs LDAP_USER_BASE (where people are searched for, e.g. ou=people,dc=lab,dc=local).',
    );
  }
  if (!!env.LDAP_BIND_DN !== !!env.LDAP_BIND_PASSWORD) {
    throw new ConfigError(
      'Set both LDAP_BIND_DN and LDAP_BIND_PASSWORD (the lookup account), or neither (an anonymous lookup).',
    );
  }
  if (env.LDAP_STARTTLS && /^ldaps:/i.test(env.LDAP_URL)) {
    throw new ConfigError('LDAP_STARTTLS=true is for an ldap:// address; an ldaps:// one is encrypted already.');
  }
  let ca: Buffer | undefined;
  if (env.LDAP_CA_FILE) {
    try {
      ca = readFileSync(env.LDAP_CA_FILE);
    } catch (err) {
      throw new ConfigError(
        `LDAP_CA_FILE ${env.LDAP_CA_FILE} cannot be read (${(err as NodeJS.ErrnoException).code}). Point it at the directory's CA certificate (PEM).`,
      );
    }
  }
  return {
    url: env.LDAP_URL,
    startTls: env.LDAP_STARTTLS,
    ca,
    bindDn: env.LDAP_BIND_DN,
    bindPassword: env.LDAP_BIND_PASSWORD,
    userBase: env.LDAP_USER_BASE,
    userFilter: env.LDAP_USER_FILTER,
    kind: env.LDAP_KIND,
    roleGroups: env.LDAP_ROLE_GROUPS,
    groupMap: env.LDAP_GROUP_MAP,
    disabledAttribute: env.LDAP_DISABLED_ATTRIBUTE,
    checkSeconds: env.LDAP_CHECK_SECONDS,
    only: env.LDAP_ONLY,
  };
}

/** Email is on when SMTP_URL is set (decision 076); then MAIL_FROM and PORTAL_URL (the links) must be set too. */
function mailConfig(env: Env): MailConfig | null {
  const url = env.SMTP_URL;
  if (!url) {
    const stray = (['MAIL_FROM', 'SMTP_CA_FILE'] as const).filter((name) => env[name] !== undefined);
    if (stray.length)
      throw new ConfigError(`${stray.join(', ')} set without SMTP_URL: set SMTP_URL too, or unset them.`);
    return null;
  }
  if (!env.MAIL_FROM) {
    throw new ConfigError('SMTP_URL needs MAIL_FROM, the sender of the mail (e.g. Lab Portal <portal@lab.example>).');
  }
  if (!env.PORTAL_URL) {
    throw new ConfigError(
      'SMTP_URL needs PORTAL_URL, the address people open the portal at: every link in a mail starts with it.',
    );
  }
  let ca: Buffer | undefined;
  if (env.SMTP_CA_FILE) {
    try {
      ca = readFileSync(env.SMTP_CA_FILE);
    } catch (err) {
      throw new ConfigError(
        `SMTP_CA_FILE ${env.SMTP_CA_FILE} cannot be read (${(err as NodeJS.ErrnoException).code}). Point it at the mail relay's CA certificate (PEM).`,
      );
    }
  }
  const secure = url.protocol === 'smtps:';
  const user = decodeURIComponent(url.username);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: user ? { user, pass: decodeURIComponent(url.password) } : undefined,
    relay: `${url.protocol}//${user ? `${encodeURIComponent(user)}@` : ''}${url.host}`,
    ca,
    from: env.MAIL_FROM,
    portalUrl: env.PORTAL_URL,
  };
}

/** Single sign-on is on when OIDC_ISSUER is set; then the client and the portal's address must be set too. */
function oidcConfig(env: Env): OidcConfig | null {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, PORTAL_URL: portalUrl } = env;
  if (!issuer) {
    const stray = (['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ROLE_CLAIM', 'OIDC_ROLE_MAP'] as const).filter(
      (name) => env[name] !== undefined && !(Array.isArray(env[name]) && env[name].length === 0),
    );
    if (stray.length) throw new ConfigError(`${stray.join(', ')} set without OIDC_ISSUER: set OIDC_ISSUER too.`);
    return null;
  }
  if (!clientId)
    throw new ConfigError('OIDC_ISSUER is set without OIDC_CLIENT_ID (the client registered at the provider).');
  if (!portalUrl) {
    throw new ConfigError(
      'OIDC_ISSUER needs PORTAL_URL, the address people open the portal at (the redirect URI is PORTAL_URL/api/auth/sso/callback).',
    );
  }
  if (env.OIDC_ROLE_MAP.length && !env.OIDC_ROLE_CLAIM) {
    throw new ConfigError('OIDC_ROLE_MAP needs OIDC_ROLE_CLAIM (the claim whose values it maps).');
  }
  return {
    issuer,
    clientId,
    clientSecret: env.OIDC_CLIENT_SECRET,
    scopes: env.OIDC_SCOPES,
    roleClaim: env.OIDC_ROLE_CLAIM,
    roleMap: env.OIDC_ROLE_MAP,
    label: { en: env.OIDC_BUTTON_LABEL_EN!, hi: env.OIDC_BUTTON_LABEL_HI! },
    allowInsecure: new URL(issuer).protocol === 'http:',
    redirectUri: `${portalUrl}/api/auth/sso/callback`,
  };
}

function storageConfig(env: Env): StorageConfig {
  if (env.STORAGE === 'local') return { driver: 'local' };
  if (!env.S3_BUCKET) throw new ConfigError('STORAGE=s3 needs S3_BUCKET (the bucket that holds the uploads).');
  if (!!env.S3_ACCESS_KEY_ID !== !!env.S3_SECRET_ACCESS_KEY) {
    throw new ConfigError('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (to use an instance role).');
  }
  return {
    driver: 's3',
    endpoint: env.S3_ENDPOINT,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION!,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    // Path style is what self-hosted stores expect; AWS itself wants virtual-hosted buckets.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? !!env.S3_ENDPOINT,
  };
}

/**
 * Reads the environment (README "Configuration"): every variable through one zod schema, so a wrong value stops the
 * start with a message naming it (ConfigError; all wrong variables at once). `stdoutIsTTY` picks the default log
 * format.
 */
export function loadConfig(
  raw: NodeJS.ProcessEnv = process.env,
  { stdoutIsTTY = Boolean(process.stdout.isTTY) }: { stdoutIsTTY?: boolean } = {},
): Config {
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message).join(' '));
  const env = parsed.data;
  const storage = storageConfig(env);
  if (env.DATABASE_OWNER_URL && !env.DATABASE_URL) {
    throw new ConfigError('DATABASE_OWNER_URL goes with DATABASE_URL (the embedded database makes its own roles).');
  }
  const ldap = ldapConfig(env, raw);
  const oidc = oidcConfig(env);
  const mail = mailConfig(env);
  const dataDir = path.resolve(env.DATA_DIR!);
  const createdAtLoad: string[] = [];
  try {
    const made = mkdirSync(dataDir, { recursive: true });
    if (made) createdAtLoad.push(made);
  } catch (err) {
    throw new ConfigError(
      `DATA_DIR ${dataDir} cannot be created or written (${(err as NodeJS.ErrnoException).code}). Point DATA_DIR at a folder this user may write.`,
    );
  }
  return {
    port: env.PORT,
    host: env.HOST!,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    databaseOwnerUrl: env.DATABASE_OWNER_URL,
    jwtSecret: jwtSecret(dataDir, env.JWT_SECRET, createdAtLoad),
    createdAtLoad,
    jwtExpiresIn: env.JWT_EXPIRES_IN,
    adminEmail: env.ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD,
    uploadMaxBytes: env.UPLOAD_MAX_BYTES,
    largeUploadMaxBytes: env.LARGE_UPLOAD_MAX_BYTES,
    loginAccountFailures: env.LOGIN_ACCOUNT_FAILURES,
    loginAddressFailures: env.LOGIN_ADDRESS_FAILURES,
    registrationsPerAddress: env.REGISTRATIONS_PER_ADDRESS,
    feedbackRateLimit: env.FEEDBACK_RATE_LIMIT,
    stepUp: { minutes: env.STEP_UP_MINUTES, classifications: env.STEP_UP_CLASSIFICATIONS },
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    auditCheckpointMinutes: env.AUDIT_CHECKPOINT_MINUTES,
    acknowledgementReminderDays: env.ACK_REMINDER_DAYS,
    digestHour: env.DIGEST_HOUR,
    dakEscalateDays: env.DAK_ESCALATE_DAYS,
    preview: {
      maxBytes: env.PREVIEW_MAX_BYTES,
      timeoutSeconds: env.PREVIEW_TIMEOUT_SECONDS,
      soffice: env.SOFFICE_PATH ?? 'soffice',
    },
    stampTimeoutSeconds: env.STAMP_TIMEOUT_SECONDS,
    sandbox: {
      bwrap: env.BWRAP_PATH ?? 'bwrap',
      cpuSeconds: env.SANDBOX_CPU_SECONDS,
      memoryMb: env.SANDBOX_MEMORY_MB,
      maxPages: env.SANDBOX_MAX_PAGES,
    },
    logLevel: env.LOG_LEVEL,
    redisUrl: env.REDIS_URL,
    // LOG_FORMAT, else pretty for a person at a terminal during development and JSON everywhere else.
    logFormat: env.LOG_FORMAT ?? (stdoutIsTTY && env.NODE_ENV !== 'production' ? 'pretty' : 'json'),
    trustProxy: env.TRUST_PROXY,
    serveWeb: env.SERVE_WEB,
    webRoot: env.WEB_ROOT ? path.resolve(env.WEB_ROOT) : undefined,
    runtimeMetrics: env.RUNTIME_METRICS,
    readsAtOnce: env.READS_AT_ONCE,
    storage,
    jwtSecretRotate: env.JWT_SECRET_ROTATE,
    backupKey: env.BACKUP_KEY,
    ldap,
    mfaRequiredRoles: env.MFA_REQUIRED_ROLES,
    mfaForCleared: env.MFA_FOR_CLEARED,
    portalUrl: env.PORTAL_URL,
    oidc,
    mail,
  };
}
