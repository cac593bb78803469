import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * A JSON answer made once and sent many times (the lab home's cached reads, decision 010): its bytes, a weak ETag,
 * and its brotli and gzip forms, each compressed once on first demand (in the thread pool, at a higher level than a
 * per-request compression could afford) instead of once per request.
 */
export interface PreparedAnswer {
  body: Buffer;
  etag: string;
  encoded: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
  /** Headers that go with the answer (a paged list's X-Total-Count and Link). */
  headers?: Record<string, string>;
}

export function prepareJson(value: unknown, headers?: Record<string, string>): PreparedAnswer {
  const body = Buffer.from(JSON.stringify(value));
  return {
    body,
    etag: `W/"${createHash('sha1').update(body).digest('base64url')}"`,
    encoded: {},
    ...(headers ? { headers } : {}),
  };
}

/**
 * Brotli (and gzip) level of a prepared answer. Measured on the group page's 7.8 KB answer: quality 5 took 0.17 ms and
 * quality 9 5.2 ms, for the same 2,445 bytes. A group's answers are remade whenever a member saves a profile, and at
 * quality 9 that remaking cost the morning load more than the cache saved.
 */
const PREPARED_QUALITY = 5;

/** Below this size an answer goes uncompressed (the same threshold as @fastify/compress in app.ts). */
const COMPRESS_MIN_BYTES = 1024;

/** The best of `available` (brotli first) that the request's Accept-Encoding names, or null for the bytes as they are. */
export function acceptedEncoding(
  req: FastifyRequest,
  available: readonly ('br' | 'gzip')[] = ['br', 'gzip'],
): 'br' | 'gzip' | null {
  const accept = req.headers['accept-encoding'];
  if (!accept || typeof accept !== 'string') return null;
  if (available.includes('br') && /\bbr\b/.test(accept)) return 'br';
  if (available.includes('gzip') && /\bgzip\b/.test(accept)) return 'gzip';
  return null;
}

/**
 * Sets the validator headers of an answer that is the same bytes until its ETag changes (`Vary: Accept-Encoding`:
 * its encoding follows the request); true when the browser already has it, and the answer is then 304 Not Modified.
 */
export function answeredNotModified(req: FastifyRequest, reply: FastifyReply, etag: string, cacheControl: string) {
  reply.header('ETag', etag).header('Cache-Control', cacheControl).header('Vary', 'Accept-Encoding');
  const match = req.headers['if-none-match'];
  if (!match || (match !== etag && match !== etag.slice(2))) return false;
  reply.code(304).send();
  return true;
}

/**
 * Sends a prepared answer: `304 Not Modified` when the browser already has it (If-None-Match), else its bytes in the
 * best encoding the browser accepts. `Cache-Control: no-cache` (public answers): the browser keeps it and asks again
 * each time; a signed-in person's answer says `private, no-cache`, so no shared cache keeps it.
 */
export async function sendPrepared(
  req: FastifyRequest,
  reply: FastifyReply,
  answer: PreparedAnswer,
  cacheControl: 'no-cache' | 'private, no-cache' = 'no-cache',
) {
  if (answer.headers) reply.headers(answer.headers);
  if (answeredNotModified(req, reply, answer.etag, cacheControl)) return reply;
  reply.type('application/json; charset=utf-8');
  const encoding = answer.body.length >= COMPRESS_MIN_BYTES ? acceptedEncoding(req) : null;
  if (!encoding) return reply.send(answer.body);
  answer.encoded[encoding] ??=
    encoding === 'br'
      ? brotli(answer.body, {
          params: {
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_QUALITY]: PREPARED_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: answer.body.length,
          },
        })
      : gzip(answer.body, { level: PREPARED_QUALITY });
  return reply.header('Content-Encoding', encoding).send(await answer.encoded[encoding]);
}
