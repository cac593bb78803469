import type { FastifyInstance } from 'fastify';

/** One route of the app: its method and its URL pattern (`:id` parameters as Fastify writes them). */
export interface RouteEntry {
  method: string;
  url: string;
}

/** Every route of the app but HEAD and OPTIONS, read from Fastify's printed route tree (each level indents 4). */
export function listRoutes(instance: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  const stack: string[] = [];
  for (const line of instance.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const url = stack.join('');
    if (url.includes('*')) continue;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url });
    }
  }
  return routes;
}
