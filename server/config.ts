import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { z } from 'zod';

import type { Role } from '#shared/constants.ts';

import { auditEnv } from './config/audit.ts';
import { clockEnv } from './config/clock.ts';
import { filesEnv } from './config/files.ts';
import { type LdapConfig, ldapConfig, ldapEnv } from './config/ldap.ts';
import { logsEnv, type SyslogConfig, syslogConfig } from './config/logs.ts';
import { type MailConfig, mailConfig, mailEnv } from './config/mail.ts';
import { malwareEnv, type MalwareScanConfig, malwareScanConfig } from './config/malware.ts';
import { noticesEnv } from './config/notices.ts';
import { type OcrConfig, ocrConfig, ocrEnv } from './config/ocr.ts';
import { type OidcConfig, oidcConfig, oidcEnv } from './config/oidc.ts';
import { type PasswordPolicy, passwordPolicy, passwordsEnv } from './config/passwords.ts';
import { serverEnv } from './config/server.ts';
import { jwtSecret, signInEnv, type StepUpConfig } from './config/sign-in.ts';
import { type Seal, signingConfig, signingEnv } from './config/signing.ts';
import { type StorageConfig, storageConfig, storageEnv } from './config/storage.ts';
import { ConfigError } from './config/variables.ts';

// The environment is checked by one zod schema (README "Configuration"), composed here of one schema per concern in
// server/config/ (docs/decisions/105); every wrong variable is named at once. The settings that go together (the
// directory, single sign-on, mail, S3) are then checked together by their concern's *Config function.

export { AUDIT_CHECKPOINT_MINUTES, AUDIT_RETENTION_MIN_DAYS } from './config/audit.ts';
export { DIRECTORY_ROLES, type DirectoryRole, type LdapConfig } from './config/ldap.ts';
export { LOG_RETENTION_MIN_DAYS, type SyslogConfig } from './config/logs.ts';
export type { MailConfig } from './config/mail.ts';
export type { ClamdAddress, MalwareScanConfig } from './config/malware.ts';
export type { OcrConfig } from './config/ocr.ts';
export { MAPPABLE_ROLES, type MappableRole, type OidcConfig } from './config/oidc.ts';
export type { PasswordPolicy } from './config/passwords.ts';
export {
  JWT_SECRET_MIN_LENGTH,
  STEP_UP_CLASSIFICATION_NAMES,
  type StepUpClassification,
  type StepUpConfig,
} from './config/sign-in.ts';
export type { Seal } from './config/signing.ts';
export type { S3StorageConfig, StorageConfig } from './config/storage.ts';
export { ConfigError } from './config/variables.ts';

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
   * The step-up before classified letters (decision 066): opening, downloading or marking a letter
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
   * Circulars that must be acknowledged (decision 074): each person still pending is reminded under
   * the bell this many days before their due date (ACK_REMINDER_DAYS, default 2), and again the day after it.
   */
  acknowledgementReminderDays: number;
  /** The hour (0–23, India time) of the morning notices and the daily digest (DIGEST_HOUR, default 9; decision 082). */
  digestHour: number;
  /** An overdue letter is also told to the holder's group head this many days after its due date (DAK_ESCALATE_DAYS, 3). */
  dakEscalateDays: number;
  /**
   * Document previews (decision 084): Office files up to `maxBytes` (PREVIEW_MAX_BYTES, default 30 MB) are
   * converted to PDF by LibreOffice at `soffice` (SOFFICE_PATH, default soffice on the PATH), killed after
   * `timeoutSeconds` (PREVIEW_TIMEOUT_SECONDS, default 120); PDFs up to `maxBytes` get the viewer's update (088).
   */
  preview: { maxBytes: number; timeoutSeconds: number; soffice: string };
  /** A classified PDF's watermark taking longer than this is stopped and the download refused (STAMP_TIMEOUT_SECONDS, 096). */
  watermarkTimeoutSeconds: number;
  /**
   * The sandbox every parser of an uploaded file runs in (decision 091, server/lib/sandbox.ts): bubblewrap at `bwrap`
   * (BWRAP_PATH, default bwrap on the PATH), each run held to `cpuSeconds` of CPU (SANDBOX_CPU_SECONDS, 120) and
   * `memoryMb` of memory (SANDBOX_MEMORY_MB, 2048); a PDF of more than `maxPages` pages (SANDBOX_MAX_PAGES, 5000)
   * gets no viewer's update, and an Office file converted to one has no preview.
   */
  sandbox: { bwrap: string; cpuSeconds: number; memoryMb: number; maxPages: number };
  /** Text recognised in scans (OCR_*, OCRMYPDF_PATH; decision 113): languages, concurrency and the limits of one scan. */
  ocr: OcrConfig;
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
   * MFA_REQUIRED_ROLES: the roles that must sign in with a second factor (decision 064). Empty by
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
  /** Every upload scanned by clamd before it is stored (CLAMD_*, decision 115), or null: CLAMD_URL is unset. */
  malwareScan: MalwareScanConfig | null;
  /** The lab's seal (SIGNING_P12 opened with SIGNING_P12_PASSWORD; decision 118), or null: the portal seals nothing. */
  seal: Seal | null;
  /** PASSWORD_MAX_AGE_DAYS and PASSWORD_HISTORY (decision 117); both null unless set. */
  passwords: PasswordPolicy;
  /** LOG_RETENTION_DAYS: the log files in DATA_DIR/logs are kept this many days (180 at least; decision 125). */
  logRetentionDays: number;
  /** The lab's log collector (SYSLOG_URL, SYSLOG_CA_FILE; decision 125), or null: nothing is shipped. */
  syslog: SyslogConfig | null;
  /** NTP_SERVER: the clock is checked against it (decision 126); null: no check. */
  ntpServer: string | null;
  /** SIGNER_HELPER_URL: the signer helper adding an approver's personal signature (decision 122), or null. */
  signerHelperUrl: string | null;
}

const envSchema = z.object({
  ...serverEnv.shape,
  ...signInEnv.shape,
  ...filesEnv.shape,
  ...ocrEnv.shape,
  ...noticesEnv.shape,
  ...auditEnv.shape,
  ...storageEnv.shape,
  ...ldapEnv.shape,
  ...mailEnv.shape,
  ...oidcEnv.shape,
  ...malwareEnv.shape,
  ...signingEnv.shape,
  ...passwordsEnv.shape,
  ...logsEnv.shape,
  ...clockEnv.shape,
});

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
  const malwareScan = malwareScanConfig(env);
  const seal = signingConfig(env);
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
    watermarkTimeoutSeconds: env.STAMP_TIMEOUT_SECONDS,
    sandbox: {
      bwrap: env.BWRAP_PATH ?? 'bwrap',
      cpuSeconds: env.SANDBOX_CPU_SECONDS,
      memoryMb: env.SANDBOX_MEMORY_MB,
      maxPages: env.SANDBOX_MAX_PAGES,
    },
    ocr: ocrConfig(env),
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
    malwareScan,
    seal,
    passwords: passwordPolicy(env),
    logRetentionDays: env.LOG_RETENTION_DAYS,
    syslog: syslogConfig(env),
    ntpServer: env.NTP_SERVER ?? null,
    signerHelperUrl: env.SIGNER_HELPER_URL,
  };
}
