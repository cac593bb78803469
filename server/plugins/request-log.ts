import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** A request slower than this is logged at info whatever the log level, with its time (decision 016). */
export const SLOW_REQUEST_MS = 1000;

/**
 * Fastify's per-request log lines, made cheap: "incoming request" at debug, and "request completed" at debug when the
 * request was quick and succeeded, at info when it was slow (over SLOW_REQUEST_MS) or refused (4xx), at error when
 * it failed (5xx or an error). At the default level (info) a quick successful request writes nothing: two info lines
 * per request were about 12 % of a cached read's time (decision 016). LOG_LEVEL=debug shows every request again.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, _request: FastifyRequest, reply: FastifyReply) {
    const ms = reply.elapsedTime;
    if (error || reply.statusCode >= 500) {
      reply.log.error({ res: reply, err: error ?? undefined, responseTime: ms }, 'request failed');
    } else if (ms > SLOW_REQUEST_MS) {
      reply.log.info({ res: reply, responseTime: ms }, 'slow request');
    } else if (reply.statusCode >= 400) {
      reply.log.info({ res: reply, responseTime: ms }, 'request refused');
    } else {
      reply.log.debug({ res: reply, responseTime: ms }, 'request completed');
    }
  }
}
