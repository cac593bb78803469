import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { TestProject } from 'vitest/node';

import { openDatabase } from '#server/db/client.ts';
import { seedMinimal } from '#server/demo/seed-minimal.ts';
import { freePort } from '#server/test/load-balancer.ts';
import { startTestProvider, TEST_CLIENT, TEST_ROLE_CLAIM } from '#server/test/oidc-provider.ts';
import { makeTestCertificates } from '#server/test/signer-helper.ts';
import { startTestSmtp } from '#server/test/smtp-server.ts';

import { buildServerIfNeeded } from '../scripts/server-build.mjs';
import { buildWebIfNeeded, projectRoot } from '../scripts/web-build.mjs';
import { SSO_DIRECTOR, SSO_DIRECTORS_GROUP, SSO_LABEL, SSO_LINK_PERSON, SSO_UNVERIFIED } from './sso-people.ts';

/** One portal of the e2e run, with the services it uses; each worker has its own (e2e/portal.ts). */
export interface E2ePortal {
  /** Where the portal answers, e.g. http://127.0.0.1:41234 */
  baseURL: string;
  labId: string;
  /** Two groups made by seedMinimal, to approve people into. */
  groupIds: string[];
  /**
   * The portal's own database (DATA_DIR/pg-url), for a test that must set what no API sets: a session's proof time
   * aged past STEP_UP_MINUTES (step-up.e2e.ts). Each test touches only its own rows.
   */
  databaseUrl: string;
  /** The issuer of the portal's OpenID provider, which it signs people in with (e2e/sso.e2e.ts). */
  ssoIssuer: string;
  /**
   * Where the portal's SMTP server (its relay, SMTP_URL) writes each mail it takes, one JSON file a mail
   * (`<sequence>.json`: to, subject, text, html, language), for e2e/mail.ts to read.
   */
  mailDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's portals, one per worker: portals[VITEST_POOL_ID - 1] is a worker's own (e2e/portal.ts). */
    portals: E2ePortal[];
    admin: { email: string; password: string };
    /** The private copy of the web build the servers serve (a test's own server, e.g. the session test's, too). */
    webRoot: string;
  }
}

const ADMIN = { email: 'e2e-admin@lab.test', password: 'e2e-Admin-2026' };

const lastLines = (file: string, n = 40) => readFileSync(file, 'utf8').trim().split('\n').slice(-n).join('\n');

async function waitForHealth(baseURL: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server stopped (exit ${child.exitCode}) before it was healthy.`);
    try {
      const res = await fetch(`${baseURL}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The server did not answer ${baseURL}/api/health within ${timeoutMs / 1000} s.`);
}

export interface PortalServer {
  baseURL: string;
  labId: string;
  groupIds: string[];
  stop: () => Promise<void>;
}

/**
 * Seeds the lab and groups into `dataDir` and starts the real server there on a free port (its own embedded
 * PostgreSQL in that data folder), serving `webRoot`, with `env` on top of the e2e settings. The whole run uses one (below); a test that needs
 * other settings (the session test's short JWT_EXPIRES_IN) starts its own.
 */
export async function startPortalServer(opts: {
  dataDir: string;
  webRoot: string;
  logFile: string;
  env?: NodeJS.ProcessEnv;
  /** The port to listen on (one already named to the OpenID provider); default a free one. */
  port?: number;
}): Promise<PortalServer> {
  // The embedded PostgreSQL runs as its own system user when the tests run as root: it must pass through the folder
  // holding dataDir (mkdtemp makes it 0700), and the data-folder lock is a file inside dataDir.
  chmodSync(path.dirname(opts.dataDir), 0o755);
  mkdirSync(opts.dataDir, { recursive: true });
  const database = await openDatabase({ dataDir: opts.dataDir });
  const seed = await seedMinimal(database.db);
  await database.close();

  const port = opts.port ?? (await freePort());
  const baseURL = `http://127.0.0.1:${port}`;
  mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const log = createWriteStream(opts.logFile);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: opts.dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: 'e2e-secret-e2e-secret-e2e-secret-e2e',
    LOGIN_ADDRESS_FAILURES: '10000',
    REGISTRATIONS_PER_ADDRESS: '10000',
    FEEDBACK_RATE_LIMIT: '10000',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL || 'warn',
    SERVE_WEB: 'true',
    WEB_ROOT: opts.webRoot,
    ...opts.env,
  };
  delete env.DATABASE_URL; // the e2e server always runs on its own embedded database
  const child = spawn(process.execPath, ['--enable-source-maps', buildServerIfNeeded()], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  try {
    // Health is the signal; the deadline only catches a start that hangs. A run's portals start together, beside the
    // API suite's own database (decision 127): at a load of 28 one took more than the 60 s this was.
    await waitForHealth(baseURL, child, 150_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\nLast lines of ${opts.logFile}:\n${lastLines(opts.logFile)}`, {
      cause: err,
    });
  }
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
  };
  return { baseURL, labId: seed.labId, groupIds: seed.groupIds, stop };
}

/**
 * One portal of the run in `portalDir`: a real OpenID provider and a real SMTP server for it, then the real server
 * on a free port with single sign-on and mail through them (its own embedded PostgreSQL in its own data folder).
 * The server's log is test-results/e2e-server-<n>.log.
 */
async function startE2ePortal(n: number, portalDir: string, webRoot: string) {
  // A real OpenID provider (the API tests' oidc-provider, server/test/oidc-provider.ts) on its own free port, for
  // single sign-on (decision 063): it must know the portal's address (its redirect URI), so the port is chosen first.
  const port = await freePort();
  // Named by host name, not address: passkeys take PORTAL_URL's host as their relying party, and browsers refuse an IP
  // address there (decision 065). The journeys that need it (sso, passkeys) open the server as http://localhost.
  const portalUrl = `http://localhost:${port}`;
  const provider = await startTestProvider(portalUrl);
  provider.accounts.set(SSO_DIRECTOR.login, {
    sub: SSO_DIRECTOR.login,
    email: SSO_DIRECTOR.email,
    email_verified: true,
    name: SSO_DIRECTOR.name,
    [TEST_ROLE_CLAIM]: [SSO_DIRECTORS_GROUP],
  });
  provider.accounts.set(SSO_UNVERIFIED.login, {
    sub: SSO_UNVERIFIED.login,
    email: ADMIN.email,
    email_verified: false,
    name: SSO_UNVERIFIED.name,
  });
  provider.accounts.set(SSO_LINK_PERSON.login, {
    sub: SSO_LINK_PERSON.login,
    email: SSO_LINK_PERSON.email,
    email_verified: false,
    name: SSO_LINK_PERSON.name,
  });
  // A real SMTP server (server/test/smtp-server.ts) as the portal's mail relay (decision 076): every mail it takes is
  // written to mailDir for the tests, which run in other processes.
  const mailDir = path.join(portalDir, 'mail');
  mkdirSync(mailDir, { recursive: true });
  let received = 0;
  const smtp = await startTestSmtp({
    onMail: ({ to, subject, text, html, language, attachments }) => {
      received += 1;
      const file = path.join(mailDir, `${String(received).padStart(6, '0')}.json`);
      const files = attachments.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        base64: a.content.toString('base64'),
      }));
      writeFileSync(file, JSON.stringify({ to, subject, text, html, language, attachments: files }));
    },
  });
  // The lab's seal (decision 118): a test certificate made by openssl, which signs approved drafts (decision 122).
  const seal = makeTestCertificates('E2E Lab Seal');
  const dataDir = path.join(portalDir, 'data');
  const server = await startPortalServer({
    dataDir,
    webRoot,
    logFile: path.join(projectRoot, 'test-results', `e2e-server-${n}.log`),
    port,
    env: {
      PORTAL_URL: portalUrl,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: TEST_CLIENT.id,
      OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
      OIDC_ROLE_CLAIM: TEST_ROLE_CLAIM,
      OIDC_ROLE_MAP: `director=${SSO_DIRECTORS_GROUP}`,
      OIDC_BUTTON_LABEL_EN: SSO_LABEL.en,
      OIDC_BUTTON_LABEL_HI: SSO_LABEL.hi,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Lab Portal <portal@lab.test>',
      SIGNING_P12: seal.p12Path,
      SIGNING_P12_PASSWORD: seal.p12Password,
    },
  }).catch(async (err: unknown) => {
    await provider.close();
    await smtp.close();
    seal.remove();
    throw err;
  });
  const portal: E2ePortal = {
    baseURL: server.baseURL,
    labId: server.labId,
    groupIds: server.groupIds,
    databaseUrl: readFileSync(path.join(dataDir, 'pg-url'), 'utf8').trim(),
    ssoIssuer: provider.issuer,
    mailDir,
  };
  const stop = async () => {
    await server.stop();
    await provider.close();
    await smtp.close();
    seal.remove();
  };
  return { portal, stop };
}

/**
 * Once for the whole e2e run: build the web app and the server if needed and copy the web build (WEB_ROOT, so a
 * rebuild in the working tree cannot pull chunks away mid-run), then one portal per worker (startE2ePortal, all
 * started at once), and stop them all at the end. A worker runs one file at a time against its own portal, so a
 * file never shares a server, a database or a mailbox with a file running beside it (decision 109). Tests seed the
 * rest through the API (decision 012).
 */
export default async function setup(project: TestProject) {
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'lp-e2e-'));
  const webRoot = path.join(runDir, 'web');
  if (buildWebIfNeeded({ log: (line) => console.log(line), snapshotTo: webRoot }) !== 0) {
    throw new Error('The web build failed.');
  }
  buildServerIfNeeded(); // once, before the portals start together
  const workers = project.config.maxWorkers || project.vitest.config.maxWorkers || 1;
  const started = await Promise.allSettled(
    Array.from({ length: workers }, (_, i) => startE2ePortal(i + 1, path.join(runDir, `portal-${i + 1}`), webRoot)),
  );
  const stopAll = async () => {
    for (const s of started) if (s.status === 'fulfilled') await s.value.stop();
    rmSync(runDir, { recursive: true, force: true });
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  const portals = started.map((s) => (s as PromiseFulfilledResult<{ portal: E2ePortal }>).value.portal);

  project.provide('portals', portals);
  project.provide('admin', ADMIN);
  project.provide('webRoot', webRoot);

  return stopAll;
}
