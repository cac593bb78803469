import { existsSync } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyRequest } from 'fastify';

/** Is this a browser navigation (a page load), as opposed to an API call made with fetch? */
function wantsPage(req: FastifyRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const url = req.url;
  if (url.startsWith('/api/') || url.startsWith('/uploads/') || url.startsWith('/assets/')) return false;
  const accept = req.headers.accept ?? '';
  return accept.includes('text/html') && !accept.startsWith('application/json');
}

/**
 * Serves the built web app from `root` (dist/web). Screen URLs that are also API paths (/admin/logs,
 * /admin/close-group...) get index.html only when the browser asks for HTML (STYLE.md trap).
 */
export const webPlugin = fp<{ root: string }>(async (app, opts) => {
  const index = path.join(opts.root, 'index.html');
  if (!existsSync(index)) {
    app.log.warn({ root: opts.root }, 'web build not found: run npm run build; serving the API only');
    return;
  }
  // The built web app is public (decision 014): mark every route this plugin and @fastify/static declare, as
  // @fastify/static takes no route config of its own.
  let declaring = true;
  app.addHook('onRoute', (route) => {
    if (declaring) route.config = { ...route.config, public: true };
  });
  await app.register(fastifyStatic, {
    root: opts.root,
    wildcard: false,
    index: false,
    // The build's .br and .gz copies (vite.config.ts), chosen by Accept-Encoding: nothing compressed per request.
    preCompressed: true,
    // Hashed assets never change under their name; index.html (and its .br/.gz copies) is checked on every visit so a
    // new build is picked up at once.
    // Only files under this root: the same reply.sendFile also serves downloads from DATA_DIR/uploads (files.routes.ts).
    setHeaders(res, filePath) {
      const name = path.relative(opts.root, filePath);
      if (name.startsWith('..') || path.isAbsolute(name)) return;
      if (name.startsWith(`assets${path.sep}`)) res.header('Cache-Control', 'public, max-age=31536000, immutable');
      else if (/^index\.html(\.br|\.gz)?$/.test(name)) res.header('Cache-Control', 'no-cache');
    },
  });
  // Files at the top of dist/web (favicon, logo, robots.txt) and hashed assets.
  app.get('/assets/*', (req, reply) => reply.sendFile(`assets/${(req.params as { '*': string })['*']}`));
  const topLevel = ['favicon.svg', 'logo.svg', 'robots.txt'];
  for (const name of topLevel) {
    // With wildcard: false, @fastify/static has already declared a route for each file present at start.
    if (existsSync(path.join(opts.root, name)) && !app.hasRoute({ method: 'GET', url: `/${name}` }))
      app.get(`/${name}`, (_req, reply) => reply.sendFile(name));
  }
  declaring = false;
  // Runs before the sign-in check (app.ts registers this plugin first): a page load of any screen gets the app.
  app.addHook('onRequest', async (req, reply) => {
    if (wantsPage(req)) {
      return reply.sendFile('index.html');
    }
  });
});
