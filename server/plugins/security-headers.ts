import type { IncomingMessage, ServerResponse } from 'node:http';

import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/** The portal's security headers: helmet's defaults with a strict Content-Security-Policy. */
const HELMET_OPTIONS: HelmetOptions = {
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
};

/**
 * The headers helmet sets with these options. None depends on the request (no CSP nonces), so helmet runs once, at
 * start, on a stand-in response, instead of re-deriving the same headers on every request (decision 016: about 5 % of a
 * cached read's time went there).
 */
export function securityHeaderSet(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}

/** Sends the precomputed security headers with every answer: errors, 404s and refusals in onRequest hooks included. */
export const securityHeadersPlugin = fp(async (app) => {
  const headers = securityHeaderSet();
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.headers(headers);
    done(null, payload);
  });
});
