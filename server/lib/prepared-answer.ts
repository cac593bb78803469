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
}

export function prepareJson(value: unknown): PreparedAnswer {
  const body = Buffer.from(JSON.stringify(value));
  return { body, etag: `W/"${createHash('sha1').update(body).digest('base64url')}"`, encoded: {} };
}

/** Below this size an answer goes uncompressed (the same threshold as @fastify/compress in app.ts). */
const COMPRESS_MIN_BYTES = 1024;

function encodingFor(req: FastifyRequest): 'br' | 'gzip' | null {
  const accept = req.headers['accept-encoding'];
  if (!accept || typeof accept !== 'string') return null;
  if (/\bbr\b/.test(accept)) return 'br';
  if (/\bgzip\b/.test(accept)) return 'gzip';
  return null;
}

/**
 * Sends a prepared public answer: `304 Not Modified` when the browser already has it (If-None-Match), else its bytes
 * in the best encoding the browser accepts. `Cache-Control: no-cache`: the browser keeps it and asks again each time.
 */
export async function sendPrepared(req: FastifyRequest, reply: FastifyReply, answer: PreparedAnswer) {
  reply.header('ETag', answer.etag).header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding');
  const match = req.headers['if-none-match'];
  if (match && (match === answer.etag || match === answer.etag.slice(2))) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  const encoding = answer.body.length >= COMPRESS_MIN_BYTES ? encodingFor(req) : null;
  if (!encoding) return reply.send(answer.body);
  answer.encoded[encoding] ??=
    encoding === 'br'
      ? brotli(answer.body, {
          params: {
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: answer.body.length,
          },
        })
      : gzip(answer.body, { level: 9 });
  return reply.header('Content-Encoding', encoding).send(await answer.encoded[encoding]);
}
