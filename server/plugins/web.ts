import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { acceptedEncoding, answeredNotModified } from '#server/lib/prepared-answer.ts';

/**
 * Is this a browser navigation (a page load), as opposed to an API call made with fetch? A browser asks for text/html;
 * a client that takes any type (`curl`: Accept of any type, or none) gets the page too where no API route answers the
 * address (`curl http://localhost:3000/`), while the spec's `/admin/...` API calls stay API calls.
 */
function wantsPage(req: FastifyRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const url = req.url;
  if (url.startsWith('/api/') || url.startsWith('/uploads/') || url.startsWith('/assets/')) return false;
  const accept = req.headers.accept ?? '';
  if (accept.startsWith('application/json')) return false;
  return accept.includes('text/html') || (req.is404 && (accept === '' || accept.trim() === '*/*'));
}

/** The types of what the build writes (vite.config.ts); anything else goes as bytes. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

interface WebFile {
  type: string;
  etag: string;
  plain: Buffer;
  /** The build's brotli and gzip copies (vite.config.ts), where it wrote them, and which of the two there are. */
  br?: Buffer;
  gzip?: Buffer;
  encodings: ('br' | 'gzip')[];
  /** When this copy is to be read again from disk (index.html); hashed assets never change under their name. */
  expires: number;
}

/** How long index.html is served from memory before it is read again, so a new build shows within this time. */
const INDEX_RECHECK_MS = 2000;

/**
 * Serves the built web app from `root` (dist/web), from memory: each file is read from disk (with the build's .br and
 * .gz copies) on its first request and then sent as bytes, with its ETag, Cache-Control and encoding chosen per
 * request — no file opened per request (@fastify/static's stat, open and stream cost a hashed script
 * about 1 ms of CPU a request). Memory is bounded by the build itself (under 5 MB with its copies). Screen URLs that
 * are also API paths (/admin/logs, /admin/close-group...) get index.html only when the browser asks for HTML
 * (STYLE.md trap).
 */
export const webPlugin = fp<{ root: string }>(async (app, opts) => {
  const root = path.resolve(opts.root);
  const index = path.join(root, 'index.html');
  if (!existsSync(index)) {
    app.log.warn({ root }, 'web build not found: run npm run build; serving the API only');
    return;
  }
  const loaded = new Map<string, Promise<WebFile | null>>();

  async function load(name: string, expires: number): Promise<WebFile | null> {
    const file = path.join(root, name);
    const plain = await readFile(file).catch(() => null);
    if (!plain) return null;
    const [br, gzip] = await Promise.all([
      readFile(`${file}.br`).catch(() => undefined),
      readFile(`${file}.gz`).catch(() => undefined),
    ]);
    return {
      type: TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream',
      etag: `W/"${createHash('sha1').update(plain).digest('base64url')}"`,
      plain,
      br,
      gzip,
      encodings: [...(br ? (['br'] as const) : []), ...(gzip ? (['gzip'] as const) : [])],
      expires,
    };
  }

  /** The file `name` (relative to root, already checked to stay inside it), from memory once read. */
  function webFile(name: string): Promise<WebFile | null> {
    const hit = loaded.get(name);
    if (hit) return hit.then((f) => (f && f.expires < Date.now() ? refresh(name) : f));
    return refresh(name);
  }
  function refresh(name: string): Promise<WebFile | null> {
    const expires = name === 'index.html' ? Date.now() + INDEX_RECHECK_MS : Infinity;
    const pending = load(name, expires);
    loaded.set(name, pending);
    // A missing file is not remembered: a scanner's made-up names must not fill memory.
    void pending.then((f) => (f ? undefined : loaded.delete(name)));
    return pending;
  }

  async function send(req: FastifyRequest, reply: FastifyReply, name: string, cacheControl: string) {
    const file = await webFile(name);
    if (!file) return reply.callNotFound();
    if (answeredNotModified(req, reply, file.etag, cacheControl)) return reply;
    reply.header('Content-Type', file.type);
    const encoding = acceptedEncoding(req, file.encodings);
    return encoding ? reply.header('Content-Encoding', encoding).send(file[encoding]) : reply.send(file.plain);
  }

  // The built web app is public (decision 048).
  const open = { config: { public: true } };
  // Hashed assets never change under their name: kept a year. A name that leaves the folder is simply not found.
  app.get('/assets/*', open, (req, reply) => {
    const name = path.posix.normalize(`assets/${(req.params as { '*': string })['*']}`);
    if (!name.startsWith('assets/') || name.includes('\0')) return reply.callNotFound();
    return send(req, reply, name, 'public, max-age=31536000, immutable');
  });
  // Files at the top of dist/web (favicon, logo, robots.txt).
  for (const name of ['favicon.svg', 'logo.svg', 'robots.txt'])
    if (existsSync(path.join(root, name)))
      app.get(`/${name}`, open, (req, reply) => send(req, reply, name, 'no-cache'));
  // Runs before the sign-in check (app.ts registers this plugin first): a page load of any screen gets the app,
  // checked on every visit (no-cache) so a new build is picked up at once.
  app.addHook('onRequest', async (req, reply) => {
    if (wantsPage(req)) return send(req, reply, 'index.html', 'no-cache');
  });
});
