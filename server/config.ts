import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';

const MB = 1024 * 1024;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string;
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
   * host), "true"/"false", or a list of addresses. Trusting every client would let anyone dodge the sign-in throttle.
   */
  trustProxy: boolean | string;
  /** Serve the built web app from dist/web. */
  serveWeb: boolean;
  /** Where the built web app is (WEB_ROOT; default dist/web). The e2e server serves its own copy of the build. */
  webRoot: string | undefined;
  /** RUNTIME_METRICS=true: GET /api/health/runtime answers event-loop delay and memory (for `npm run bench:load`). */
  runtimeMetrics: boolean;
  /** Where uploaded files live (STORAGE): the local disk under DATA_DIR/uploads, or an S3-compatible store. */
  storage: StorageConfig;
  /** JWT_SECRET_ROTATE=true: record this node's JWT secret as the one every node must use (decision 017). */
  jwtSecretRotate: boolean;
}

function count(name: string, value: string | undefined, fallback: number): number {
  if (!value) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`Invalid ${name}: ${value} (a whole number of at least 1)`);
  return n;
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

function bytes(value: string | undefined, fallback: number): number {
  if (!value) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`Invalid byte size: ${value}`);
  return Math.floor(n);
}

/** The JWT secret: JWT_SECRET, else one generated on first start and kept in DATA_DIR. */
function jwtSecret(dataDir: string, fromEnv: string | undefined): string {
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
  return secret;
}

/** LOG_FORMAT, else pretty for a person at a terminal during development and JSON everywhere else. */
function logFormat(env: NodeJS.ProcessEnv, stdoutIsTTY: boolean): 'pretty' | 'json' {
  if (env.LOG_FORMAT === 'pretty' || env.LOG_FORMAT === 'json') return env.LOG_FORMAT;
  if (env.LOG_FORMAT) throw new Error(`Invalid LOG_FORMAT: ${env.LOG_FORMAT} (use pretty or json)`);
  return stdoutIsTTY && env.NODE_ENV !== 'production' ? 'pretty' : 'json';
}

/** A setting the operator must fix before the portal can start. */
export class ConfigError extends Error {}

function storageConfig(env: NodeJS.ProcessEnv): StorageConfig {
  const driver = (env.STORAGE || 'local').toLowerCase();
  if (driver === 'local') return { driver: 'local' };
  if (driver !== 's3') throw new ConfigError(`STORAGE must be "local" or "s3", not "${env.STORAGE}".`);
  if (!env.S3_BUCKET) throw new ConfigError('STORAGE=s3 needs S3_BUCKET (the bucket that holds the uploads).');
  if (!!env.S3_ACCESS_KEY_ID !== !!env.S3_SECRET_ACCESS_KEY) {
    throw new ConfigError('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (to use an instance role).');
  }
  const endpoint = env.S3_ENDPOINT || undefined;
  if (endpoint && !/^https?:\/\//.test(endpoint)) {
    throw new ConfigError(`S3_ENDPOINT must be an http:// or https:// address, not "${endpoint}".`);
  }
  return {
    driver: 's3',
    endpoint,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    // Path style is what self-hosted stores expect; AWS itself wants virtual-hosted buckets.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === 'true' : !!endpoint,
  };
}

/** Reads the environment (README "Configuration"). `stdoutIsTTY` picks the default log format. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  { stdoutIsTTY = Boolean(process.stdout.isTTY) }: { stdoutIsTTY?: boolean } = {},
): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (err) {
    throw new ConfigError(
      `DATA_DIR ${dataDir} cannot be created or written (${(err as NodeJS.ErrnoException).code}). Point DATA_DIR at a folder this user may write.`,
    );
  }
  return {
    port: Number(env.PORT || 3000),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: jwtSecret(dataDir, env.JWT_SECRET),
    jwtExpiresIn: env.JWT_EXPIRES_IN || '8h',
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    uploadMaxBytes: bytes(env.UPLOAD_MAX_BYTES, 25 * MB),
    largeUploadMaxBytes: bytes(env.LARGE_UPLOAD_MAX_BYTES, 2048 * MB),
    loginAccountFailures: count('LOGIN_ACCOUNT_FAILURES', env.LOGIN_ACCOUNT_FAILURES, 5),
    loginAddressFailures: count('LOGIN_ADDRESS_FAILURES', env.LOGIN_ADDRESS_FAILURES, 100),
    registrationsPerAddress: count('REGISTRATIONS_PER_ADDRESS', env.REGISTRATIONS_PER_ADDRESS, 10),
    logLevel: env.LOG_LEVEL || 'info',
    redisUrl: env.REDIS_URL || undefined,
    feedbackRateLimit: Number(env.FEEDBACK_RATE_LIMIT || 5),
    logFormat: logFormat(env, stdoutIsTTY),
    trustProxy: env.TRUST_PROXY === 'true' ? true : env.TRUST_PROXY === 'false' ? false : env.TRUST_PROXY || 'loopback',
    serveWeb: env.SERVE_WEB !== 'false',
    webRoot: env.WEB_ROOT ? path.resolve(env.WEB_ROOT) : undefined,
    runtimeMetrics: env.RUNTIME_METRICS === 'true',
    storage: storageConfig(env),
    jwtSecretRotate: env.JWT_SECRET_ROTATE === 'true',
  };
}
