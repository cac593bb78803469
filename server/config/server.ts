import { isIP, isIPv4 } from 'node:net';

import { z } from 'zod';

import { flag, refuse, text, variable, webAddress, wholeNumber } from './variables.ts';

/**
 * The portal's process (docs/decisions/105): where it listens and keeps its data, its database, its log, the proxies
 * it trusts, the web app it serves, and the address people open it at (PORTAL_URL).
 */

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of a TRUST_PROXY list, as proxy-addr compiles it: a name, an address, address/prefix, IPv4/netmask. */
function proxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (range === undefined) return true;
  if (/^\d+$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIPv4(range);
}

const trustProxy = variable((v, ctx): boolean | string => {
  if (v === undefined) return 'loopback';
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^\d+$/.test(v.trim())) {
    // Fastify 5 trusts no proxy for a bare hop count (it cannot check the nearest proxy's address), so a number would
    // silently do nothing: refuse it.
    return refuse(
      ctx,
      `TRUST_PROXY must name the proxies, not count them (got "${v}"): Fastify trusts no proxy for a hop count. Use true, false, or addresses such as 10.0.0.5,10.1.0.0/16 or loopback.`,
    );
  }
  const entries = v.split(',').map((e) => e.trim());
  const wrong = entries.filter((e) => !proxyEntry(e));
  if (wrong.length === 0) return entries.join(',');
  return refuse(
    ctx,
    `TRUST_PROXY must be true, false, or a comma-separated list of IP addresses, CIDR ranges (10.0.0.0/8) and the names loopback, linklocal, uniquelocal (got "${v}"; not understood: ${wrong.map((w) => `"${w}"`).join(', ')}).`,
  );
});

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const serverEnv = z.object({
  PORT: wholeNumber('PORT', 3000, 0, 65535),
  HOST: text('0.0.0.0'),
  DATA_DIR: text('./data'),
  DATABASE_URL: text(),
  DATABASE_OWNER_URL: text(),
  READS_AT_ONCE: wholeNumber('READS_AT_ONCE', 8, 0, 10000),
  LOG_LEVEL: variable((v, ctx) => {
    if (v === undefined) return 'info';
    if (LOG_LEVELS.includes(v)) return v;
    return refuse(ctx, `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${v}").`);
  }),
  LOG_FORMAT: variable((v, ctx) => {
    if (v === undefined || v === 'pretty' || v === 'json') return v;
    return refuse(ctx, `Invalid LOG_FORMAT: ${v} (use pretty or json).`);
  }),
  NODE_ENV: text(),
  REDIS_URL: variable((v, ctx) => {
    if (v === undefined || /^rediss?:\/\/./.test(v)) return v;
    return refuse(ctx, `REDIS_URL must be a redis:// or rediss:// address (got "${v}").`);
  }),
  TRUST_PROXY: trustProxy,
  SERVE_WEB: flag('SERVE_WEB', true),
  WEB_ROOT: text(),
  RUNTIME_METRICS: flag('RUNTIME_METRICS', false),
  PORTAL_URL: webAddress('PORTAL_URL', true),
});
