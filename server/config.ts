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
  /** Sign-in attempts allowed per client address per minute. */
  loginRateLimit: number;
  logLevel: string;
  /**
   * Which proxies may set X-Forwarded-For/-Proto (TRUST_PROXY): "loopback" by default (a reverse proxy on the same
   * host), "true"/"false", or a list of addresses. Trusting every client would let anyone dodge the login rate limit.
   */
  trustProxy: boolean | string;
  /** Serve the built web app from dist/web. */
  serveWeb: boolean;
  /** Where the built web app is (WEB_ROOT; default dist/web). The e2e server serves its own copy of the build. */
  webRoot: string | undefined;
}

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
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Reads the environment (README "Configuration"). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  mkdirSync(dataDir, { recursive: true });
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
    loginRateLimit: Number(env.LOGIN_RATE_LIMIT || 10),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: env.TRUST_PROXY === 'true' ? true : env.TRUST_PROXY === 'false' ? false : env.TRUST_PROXY || 'loopback',
    serveWeb: env.SERVE_WEB !== 'false',
    webRoot: env.WEB_ROOT ? path.resolve(env.WEB_ROOT) : undefined,
  };
}
