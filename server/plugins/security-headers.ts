import type { IncomingMessage, ServerResponse } from 'node:http';

import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The portal's security headers (decision 116): helmet's defaults with a strict Content-Security-Policy. No inline
 * script is left (web/index.html loads one module), so scripts come from the portal alone and need no nonce; no page
 * may be framed by another (frame-ancestors 'none'), but a file under /uploads/ may be framed by the portal itself (the
 * document viewer prints a PDF through a hidden frame).
 */
const cspDirectives = (frameAncestors: string) => ({
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
  frameAncestors: [frameAncestors],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  upgradeInsecureRequests: null,
});

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { directives: cspDirectives("'none'") },
  crossOriginEmbedderPolicy: false,
  frameguard: { action: 'deny' },
  // Sent per request, behind TLS only (below): over plain http a browser ignores it, and a lab testing on http keeps it.
  hsts: false,
};

/** The same for the uploaded files, which the portal's own pages may frame. */
const FILE_OPTIONS: HelmetOptions = {
  ...HELMET_OPTIONS,
  contentSecurityPolicy: { directives: cspDirectives("'self'") },
  frameguard: { action: 'sameorigin' },
};

/**
 * What the browser may let the portal use: nothing of the device but a passkey (decision 065) and full screen (videos).
 */
export const PERMISSIONS_POLICY =
  'accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), ' +
  'microphone=(), midi=(), payment=(), usb=(), fullscreen=(self), publickey-credentials-get=(self)';

/** HSTS behind TLS: a year, subdomains included (the portal's host name is the lab's to serve over https only). */
export const HSTS = 'max-age=31536000; includeSubDomains';

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

/**
 * Sends the precomputed security headers with every answer: errors, 404s and refusals in onRequest hooks included.
 * Strict-Transport-Security goes with an answer over TLS: `req.protocol` is https on a TLS socket, or when a
 * TRUST_PROXY proxy says so in X-Forwarded-Proto (the same test that makes the sign-in cookies Secure).
 */
export const securityHeadersPlugin = fp(async (app) => {
  const pages = { ...securityHeaderSet(), 'permissions-policy': PERMISSIONS_POLICY };
  const files = { ...securityHeaderSet(FILE_OPTIONS), 'permissions-policy': PERMISSIONS_POLICY };
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.headers(req.url.startsWith('/uploads/') ? files : pages);
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done(null, payload);
  });
});
