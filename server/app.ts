import path from 'node:path';
import zlib from 'node:zlib';

import compress from '@fastify/compress';
import etag from '@fastify/etag';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';

import { type MessageCode, type MessageParams, messageText } from '#shared/messages/index.ts';

import type { Config } from './config.ts';
import { type ChangeFeed, listenForChanges } from './db/change-feed.ts';
import type { Database, Db } from './db/client.ts';
import { type BackgroundJobs, startBackgroundJobs } from './jobs/job-queue.ts';
import { jobModules } from './jobs/modules.ts';
import { AppError, badRequest, codedValidation, databaseUnavailableBody, isDatabaseUnavailable } from './lib/errors.ts';
import { isUuid } from './lib/ids.ts';
import { lingerAfterEarlyAnswer } from './lib/lingering-close.ts';
import { loggerOptions } from './lib/logger.ts';
import { projectRoot } from './lib/project-root.ts';
import { settlesWithin } from './lib/time-limit.ts';
import { acknowledgementNotices } from './modules/acknowledgements/acknowledgements.reminders.ts';
import { acknowledgementsRoutes } from './modules/acknowledgements/acknowledgements.routes.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { auditTrailRoutes } from './modules/audit-trail/audit-trail.routes.ts';
import { auditCheckpointsRoutes } from './modules/audit-trail/checkpoints.routes.ts';
import { malwareNotices } from './modules/audit-trail/malware-notices.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { type DirectoryCheck, startDirectoryCheck } from './modules/auth/directory-check.ts';
import { createSsoClient, type SsoClient } from './modules/auth/sso.client.ts';
import { ssoRoutes } from './modules/auth/sso.routes.ts';
import { ssoLinksRoutes } from './modules/auth/sso-links.routes.ts';
import { createThrottle, postgresStore, redisStore, type Throttle } from './modules/auth/throttle.ts';
import { closeGroupsRoutes } from './modules/close-groups/close-groups.routes.ts';
import { dispatchRoutes } from './modules/dispatch/dispatch.routes.ts';
import { efileNotices, efilesRoutes } from './modules/efiles/efiles.routes.ts';
import { createFileAccess, type FileAccessRules } from './modules/files/file-access.ts';
import { filesRoutes } from './modules/files/files.routes.ts';
import { createMalwareScanner, type MalwareScanner } from './modules/files/malware-scan.ts';
import { createStorage, type FileStore } from './modules/files/storage.ts';
import { galleryRoutes } from './modules/gallery/gallery.routes.ts';
import { groupsRoutes } from './modules/groups/groups.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { labsRoutes } from './modules/labs/labs.routes.ts';
import { letterMovementsRoutes } from './modules/letters/letters.movements.routes.ts';
import { letterNotices } from './modules/letters/letters.notifications.ts';
import { lettersRoutes } from './modules/letters/letters.routes.ts';
import { factorFacts } from './modules/mfa/factors.queries.ts';
import { secondFactorRequired } from './modules/mfa/mfa.policy.ts';
import { mfaRoutes } from './modules/mfa/mfa.routes.ts';
import { passkeysRoutes } from './modules/mfa/passkeys.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { notificationSources } from './modules/notifications/notifications.service.ts';
import { ownNotificationSources } from './modules/notifications/notifications.sources.ts';
import { repositoriesRoutes } from './modules/repositories/repositories.routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { signaturesRoutes } from './modules/signatures/signatures.routes.ts';
import { siteRoutes } from './modules/site/site.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { registerApiDocs } from './plugins/api-docs.ts';
import { authPlugin } from './plugins/auth.ts';
import { clockCheck } from './plugins/clock-check.ts';
import { readQueuePlugin } from './plugins/read-queue.ts';
import { RequestLog } from './plugins/request-log.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { webPlugin } from './plugins/web.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dbKind: Database['kind'];
    config: Config;
    /** The node-postgres pool behind `db` (rate-limit store, raw SQL in tests). */
    pgPool: Database['pool'];
    /** Failure throttling of sign-in and password checks, registrations per address (decision 014). */
    throttle: Throttle;
    /** Notices from the other nodes on this database (LISTEN/NOTIFY): which cached reads to forget. */
    changeFeed: ChangeFeed;
    /** Where uploads are stored (DATA_DIR/uploads or the S3 bucket, decision 017). */
    storage: FileStore;
    /** Who may download the files of each private area; each module registers its rule. */
    fileAccess: FileAccessRules;
    /** clamd's scan of every upload before it is stored (CLAMD_URL, decision 115), or null: uploads are not scanned. */
    malwareScanner: MalwareScanner | null;
    /** The directory check's timer (LDAP_URL set; decision 062). */
    directoryCheck: DirectoryCheck | null;
    /** The single sign-on provider's client (OIDC_*, decision 063), or null when single sign-on is not set up. */
    sso: SsoClient | null;
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  /** pino logger options, or false in tests. */
  logger?: boolean | object;
  /**
   * Start the background jobs (text extraction for the search) when the app is ready; server/main.ts does, API tests
   * do not (they run extraction through the same functions themselves).
   */
  backgroundJobs?: boolean;
}

const webRoot = path.join(projectRoot, 'dist', 'web');

/**
 * One JSON shape for every failure: the screens show `error` or `message` (spec §8), the spec's English sentence;
 * `code` (with `params`) names it for the web to word in the reader's language (shared/messages, decision 034);
 * `field` picks the input.
 */
function errorBody(coded: { code: MessageCode; params?: MessageParams; message: string; field?: string }) {
  const { code, params, message, field } = coded;
  return { error: message, message, code, ...(params ? { params } : {}), ...(field ? { field } : {}) };
}
const codedBody = (code: MessageCode, params?: MessageParams, field?: string) =>
  errorBody({ code, params, message: messageText(code, params), field });

/** A sentence from a shared zod schema (msg(), or a codedIssue's `params`) or from a library, with its code. */
function validationBody(message: string | undefined, field?: string, issueParams?: unknown) {
  const coded = codedValidation(message, issueParams);
  if (coded.code === 'common.unclassified') return errorBody({ ...coded, message: message!, field });
  return codedBody(coded.code, coded.params, field);
}

/** Deepest JSON nesting a request may send; nothing in the portal nests more than a few levels. */
export const MAX_JSON_DEPTH = 64;

/**
 * Checks a parsed JSON body without recursion (a body nested 9,000 levels deep must not exhaust the stack): what is
 * wrong with it, or null. PostgreSQL text cannot hold a NUL character, so none may appear in a key or a string.
 */
function jsonProblem(body: unknown): MessageCode | null {
  const stack: { value: unknown; depth: number }[] = [{ value: body, depth: 0 }];
  while (stack.length) {
    const { value, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return 'common.text_nul';
    } else if (value && typeof value === 'object') {
      if (depth >= MAX_JSON_DEPTH) return 'common.nested_too_deeply';
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) return 'common.text_nul';
        stack.push({ value: child, depth: depth + 1 });
      }
    }
  }
  return null;
}

/** Builds the portal: plugins, the error handler, then every module in one list. Opens no port. */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(opts.config),
    bodyLimit: 1024 * 1024,
    trustProxy: opts.config.trustProxy,
    return503OnClosing: true,
    // Spec §7 writes some routes with a trailing slash ("GET /api/groups/ (also written /api/groups)"): every route
    // answers the same with and without it.
    routerOptions: { ignoreTrailingSlash: true },
    logController: new RequestLog(), // quick successful requests at debug only (decision 016)
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('db', opts.database.db);
  app.decorate('dbKind', opts.database.kind);
  app.decorate('config', opts.config);
  app.decorate('pgPool', opts.database.pool);
  const sso = opts.config.oidc ? createSsoClient(opts.config.oidc, opts.config.jwtSecret, app.log) : null;
  app.decorate('sso', sso);
  // Discovery once at start, without holding the start up: a provider that is down is asked again at the first sign-in.
  if (sso) app.addHook('onReady', async () => void sso.configuration().catch(() => undefined));
  // Sign-in and registration counters are shared by every node: in PostgreSQL, or in Redis when REDIS_URL is set.
  let redis: Redis | undefined;
  if (opts.config.redisUrl) {
    redis = new Redis(opts.config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    redis.on('error', (err) => app.log.warn({ err }, 'Redis unavailable'));
    // Counted in Redis from the first request: a node waits (at most 3 s) for its connection before it serves, or
    // its first counts would go to the PostgreSQL fallback while every other node counts in Redis.
    const client = redis;
    app.addHook('onReady', async () => {
      if (client.status === 'ready') return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 3000);
        client.once('ready', () => (clearTimeout(timer), resolve()));
      });
    });
    app.addHook('onClose', async () => void (await redis?.quit().catch(() => {})));
  }
  app.decorate(
    'throttle',
    createThrottle(
      redis ? redisStore(redis, postgresStore(opts.database.pool)) : postgresStore(opts.database.pool),
      opts.config,
    ),
  );
  const storage = createStorage(opts.config, { log: (details, message) => app.log.error(details, message) });
  app.decorate('storage', storage);
  // Staging copies of uploads bound for a non-local store go when the response is done.
  app.addHook('onResponse', (req) => storage.releaseReceived(req));
  app.addHook('onClose', () => storage.close());
  app.decorate('fileAccess', createFileAccess());
  app.decorate('malwareScanner', opts.config.malwareScan ? createMalwareScanner(opts.config.malwareScan) : null);
  // A private area no module gave a rule would be open to its uploaders only, silently: refuse to start instead.
  app.addHook('onReady', async () => {
    const missing = app.fileAccess.missing();
    if (missing.length) {
      throw new Error(
        `No download rule for the private file area(s) ${missing.join(', ')}: register one with app.fileAccess.register.`,
      );
    }
  });
  clockCheck(app); // NTP_SERVER (decision 126)
  const changeFeed = listenForChanges(opts.database.url, { log: app.log });
  app.decorate('changeFeed', changeFeed);
  let jobs: BackgroundJobs | undefined;
  // Directory accounts with live sessions are checked against the lab's directory again every LDAP_CHECK_SECONDS, on
  // every node (each claims its own people: decision 062).
  const ldap = opts.config.ldap;
  app.decorate('directoryCheck', null);
  if (ldap) app.addHook('onReady', async () => void (app.directoryCheck = startDirectoryCheck(app.db, ldap, app.log)));
  if (opts.backgroundJobs)
    app.addHook(
      'onReady',
      async () =>
        void (jobs = await startBackgroundJobs(
          { database: opts.database, store: storage, config: opts.config, log: app.log },
          jobModules(),
        )),
    );
  app.addHook('onClose', async () => {
    const began = Date.now();
    app.log.info('requests drained; stopping background jobs');
    await app.directoryCheck?.stop();
    await jobs?.stop(); // the job queue first: it uses the database
    await settlesWithin(changeFeed.close(), 2000);
    const closing = Date.now();
    app.log.info({ jobsMs: closing - began }, 'background jobs stopped; closing the database');
    await opts.database.close();
    app.log.info({ databaseMs: Date.now() - closing }, 'database closed');
  });

  app.setErrorHandler((err, req, reply) => {
    // Refused before its body was read to the end (an upload judged on its headers or first fields): "close", after
    // reading and discarding the rest of the body up to a bound (lingering close), so that the sender, still writing,
    // gets its answer rather than a reset, and a huge upload does not hold the connection (server/lib/lingering-close.ts).
    if (req.raw.complete === false) {
      reply.header('connection', 'close');
      lingerAfterEarlyAnswer(req.raw);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const field = first?.instancePath?.replace(/^\//, '').replace(/\//g, '.') || undefined;
      return reply.code(400).send(validationBody(first?.message, field, first?.params?.params));
    }
    if (err instanceof AppError) {
      if (typeof err.extra?.retryAfter === 'number') reply.header('Retry-After', String(err.extra.retryAfter));
      return reply.code(err.statusCode).send({ ...errorBody(err), ...err.extra });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return reply.code(500).send(codedBody('common.server_error'));
    }
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      if (status === 413) return reply.code(413).send(codedBody('common.request_too_large'));
      return reply.code(status).send(validationBody((err as Error).message));
    }
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      return reply.code(503).send(databaseUnavailableBody);
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send(codedBody('common.server_error'));
  });
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send(codedBody('common.no_such_address', { method: req.method, path: req.url.split('?')[0]! })),
  );

  // PostgreSQL text cannot hold a NUL character: refuse it in the URL and in JSON bodies with a 400 rather than let
  // the database answer 500 (multipart fields are checked in files/storage.ts).
  // Ids are case-insensitive UUIDs: an upper-case id in the address is the same record, so every guard,
  // service and presenter sees it in lower case, as the database returns it.
  // Reads wait their turn before any other work is done on them (READS_AT_ONCE).
  await app.register(readQueuePlugin, { readsAtOnce: opts.config.readsAtOnce });
  app.addHook('onRequest', async (req) => {
    if (/%00/.test(req.url)) throw badRequest('common.address_invalid_character');
    const params = req.params as Record<string, string> | undefined;
    for (const [key, value] of Object.entries(params ?? {})) {
      if (isUuid(value) && value !== value.toLowerCase()) params![key] = value.toLowerCase();
    }
  });
  app.addHook('preValidation', async (req) => {
    if (req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body)) {
      const problem = jsonProblem(req.body);
      if (problem) throw badRequest(problem);
    }
  });

  // Fixed security headers computed once; weak ETags with 304 (before compression, so the hash is of the answer
  // itself); brotli/gzip for text answers over 1 KB.
  await app.register(securityHeadersPlugin);
  await app.register(etag, { weak: true });
  // Brotli at quality 1 for answers made per request: a third of quality 4's CPU for about 10 % more bytes on the
  // portal's JSON (measured on the group page, the directory and "who am I"); answers made once are compressed harder
  // (lib/prepared-answer.ts) and the build's files are precompressed at 11.
  // Answers up to 64 KB are compressed in one call (at quality 1, well under a millisecond) rather than through a zlib
  // stream: the library's default on two cores is 4 KB, and a stream per answer (context, pipeline, abort signal)
  // cost a page of letters more than the compression itself.
  await app.register(compress, {
    threshold: 1024,
    syncThreshold: 64 * 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
      },
    },
  });
  // Per-route limits of this process for low-stakes writes (session refresh); sign-in, registration and feedback are
  // throttled across nodes (modules/auth/throttle.ts).
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError(429, 'common.too_many_attempts'),
  });
  await app.register(multipart, {
    limits: { fileSize: opts.config.largeUploadMaxBytes, files: 1, fields: 60, fieldSize: 1024 * 1024, parts: 64 },
  });
  // The web app first: its page-load hook answers screens before the sign-in check of the API routes they share.
  if (opts.config.serveWeb) await app.register(webPlugin, { root: opts.config.webRoot ?? webRoot });
  await app.register(authPlugin, {
    secret: opts.config.jwtSecret,
    expiresIn: opts.config.jwtExpiresIn,
    stepUp: opts.config.stepUp,
    // The second factor's rule and facts, from the MFA module (decision 104): the plugin imports no module.
    secondFactor: { required: (actor) => secondFactorRequired(opts.config, actor), facts: factorFacts },
  });
  await registerApiDocs(app);

  // What each module tells under the bell, handed over here rather than by importing a routes file (decision 104).
  const bell = notificationSources([
    letterNotices,
    acknowledgementNotices,
    efileNotices,
    malwareNotices,
    ...ownNotificationSources,
  ]);
  // Every module, in one list.
  for (const routes of [
    healthRoutes,
    authRoutes,
    mfaRoutes,
    passkeysRoutes,
    ssoRoutes,
    ssoLinksRoutes,
    adminRoutes,
    usersRoutes,
    auditRoutes,
    auditCheckpointsRoutes,
    auditTrailRoutes,
    labsRoutes,
    galleryRoutes,
    groupsRoutes,
    closeGroupsRoutes,
    repositoriesRoutes,
    letterMovementsRoutes,
    lettersRoutes,
    efilesRoutes,
    dispatchRoutes,
    signaturesRoutes,
    searchRoutes,
    notificationsRoutes(bell),
    acknowledgementsRoutes,
    siteRoutes,
    filesRoutes,
  ]) {
    await app.register(routes);
  }
  return app;
}
