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
  await app.register(fastifyStatic, {
    root: opts.root,
    wildcard: false,
    index: false,
    setHeaders(res, filePath) {
      if (filePath.includes(`${path.sep}assets${path.sep}`))
        res.header('Cache-Control', 'public, max-age=31536000, immutable');
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
  app.addHook('onRequest', async (req, reply) => {
    if (wantsPage(req)) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
  });
});
