import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';

import { RequestLog, SLOW_REQUEST_MS } from './request-log.ts';

/** A finished request as the log controller sees it, with a logger that records the level of each line. */
function finished(statusCode: number, elapsedTime: number) {
  const lines: { level: string; message: string }[] = [];
  const log = Object.fromEntries(
    ['trace', 'debug', 'info', 'warn', 'error', 'fatal'].map((level) => [
      level,
      vi.fn((_obj: unknown, message: string) => lines.push({ level, message })),
    ]),
  );
  const request = { log } as unknown as FastifyRequest;
  const reply = { statusCode, elapsedTime, log } as unknown as FastifyReply;
  return { request, reply, lines };
}

describe('request log lines (issue 12)', () => {
  const controller = new RequestLog();

  it('logs a quick successful request, and every incoming one, at debug only', () => {
    const { request, reply, lines } = finished(200, 3);
    controller.incomingRequest(request);
    controller.requestCompleted(null, request, reply);
    expect(lines).toEqual([
      { level: 'debug', message: 'incoming request' },
      { level: 'debug', message: 'request completed' },
    ]);
  });

  it('logs a slow request and a refused one at info, a failed one at error', () => {
    const slow = finished(200, SLOW_REQUEST_MS + 1);
    controller.requestCompleted(null, slow.request, slow.reply);
    expect(slow.lines).toEqual([{ level: 'info', message: 'slow request' }]);
    const refused = finished(403, 2);
    controller.requestCompleted(null, refused.request, refused.reply);
    expect(refused.lines).toEqual([{ level: 'info', message: 'request refused' }]);
    const failed = finished(500, 2);
    controller.requestCompleted(null, failed.request, failed.reply);
    expect(failed.lines).toEqual([{ level: 'error', message: 'request failed' }]);
    const broken = finished(200, 2);
    controller.requestCompleted(new Error('socket closed'), broken.request, broken.reply);
    expect(broken.lines).toEqual([{ level: 'error', message: 'request failed' }]);
  });
});
