import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { AppError, badRequest } from './lib/errors.ts';
import { authPlugin } from './plugins/auth.ts';
import { webPlugin } from './plugins/web.ts';
import { setUploadsRoot } from './modules/files/storage.ts';
import { filesRoutes } from './modules/files/files.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { labsRoutes } from './modules/labs/labs.routes.ts';
import { galleryRoutes } from './modules/gallery/gallery.routes.ts';
import { groupsRoutes } from './modules/groups/groups.routes.ts';
import { closeGroupsRoutes } from './modules/close-groups/close-groups.routes.ts';
import { repositoriesRoutes } from './modules/repositories/repositories.routes.ts';
import { lettersRoutes } from './modules/letters/letters.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dbKind: Database['kind'];
    config: Config;
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  /** pino logger options, or false in tests. */
  logger?: boolean | object;
}

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'web');

/** One JSON shape for every failure: the screens show `error` or `message` (spec §8); `field` picks the input. */
const errorBody = (message: string, field?: string, extra?: Record<string, unknown>) => ({
  error: message,
  message,
  ...(field ? { field } : {}),
  ...extra,
});

/** Does any string in this parsed JSON value contain a NUL character? */
function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value && typeof value === 'object')
    return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v));
  return false;
}

/** Builds the portal: plugins, the error handler, then every module in one list. Opens no port. */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? { level: opts.config.logLevel },
    bodyLimit: 1024 * 1024,
    trustProxy: opts.config.trustProxy,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('db', opts.database.db);
  app.decorate('dbKind', opts.database.kind);
  app.decorate('config', opts.config);
  setUploadsRoot(opts.config.dataDir);
  app.addHook('onClose', async () => opts.database.close());

  app.setErrorHandler((err, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const field = first?.instancePath?.replace(/^\//, '').replace(/\//g, '.') || undefined;
      return reply.code(400).send(errorBody(first?.message ?? 'Invalid input.', field));
    }
    if (err instanceof AppError) return reply.code(err.statusCode).send(errorBody(err.message, err.field, err.extra));
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return reply.code(500).send(errorBody('Something went wrong on our side. Please try again.'));
    }
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      const message =
        status === 413
          ? 'The request is too large.'
          : status === 429
            ? 'Too many attempts. Please wait a minute and try again.'
            : (err as Error).message;
      return reply.code(status).send(errorBody(message));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send(errorBody('Something went wrong on our side. Please try again.'));
  });
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send(errorBody(`No such address: ${req.method} ${req.url.split('?')[0]}`)),
  );

  // PostgreSQL text cannot hold a NUL character: refuse it in the URL and in JSON bodies with a 400 rather than let
  // the database answer 500 (multipart fields are checked in files/storage.ts).
  app.addHook('onRequest', async (req) => {
    if (/%00/.test(req.url)) throw badRequest('The address contains an invalid character.');
  });
  app.addHook('preValidation', async (req) => {
    if (req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) && hasNul(req.body)) {
      throw badRequest('Text must not contain NUL characters.');
    }
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets CSS variables through style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameSrc: ["'self'"],
        frameAncestors: ["'self'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: false,
  });
  await app.register(rateLimit, { global: false });
  await app.register(multipart, {
    limits: { fileSize: opts.config.largeUploadMaxBytes, files: 1, fields: 60, fieldSize: 1024 * 1024, parts: 64 },
  });
  await app.register(authPlugin, { secret: opts.config.jwtSecret, expiresIn: opts.config.jwtExpiresIn });
  if (opts.config.serveWeb) await app.register(webPlugin, { root: opts.config.webRoot ?? webRoot });

  // Every module, in one list.
  for (const routes of [
    healthRoutes,
    authRoutes,
    adminRoutes,
    usersRoutes,
    auditRoutes,
    labsRoutes,
    galleryRoutes,
    groupsRoutes,
    closeGroupsRoutes,
    repositoriesRoutes,
    lettersRoutes,
    filesRoutes,
  ]) {
    await app.register(routes);
  }
  return app;
}
