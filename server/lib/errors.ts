/** A failure the client caused or may see: status, a sentence for the screen, and the input it concerns. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new AppError(400, message, field);
export const unauthorized = (message = 'Please sign in to continue.') => new AppError(401, message);
export const forbidden = (message = 'You do not have permission to do this.', extra?: Record<string, unknown>) =>
  new AppError(403, message, undefined, extra);
export const notFound = (message = 'Not found.') => new AppError(404, message);
export const conflict = (message: string, field?: string) => new AppError(409, message, field);
export const tooLarge = (message: string) => new AppError(413, message);

// Connection failures: node's socket errors and PostgreSQL's connection exception (08) and shutdown (57P0x) classes.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
]);
const UNAVAILABLE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end/;

/** The 503 body of every request while the database is unreachable (app.ts's error handler, GET /api/health). */
export const databaseUnavailableBody = {
  error: 'The database is not available right now. Please try again in a moment.',
  message: 'The database is not available right now. Please try again in a moment.',
  code: 'database.unavailable',
} as const;

/** Did this error (or what caused it, as Drizzle wraps driver errors) come from a lost or refused database connection? */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_TEXT.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** 429 with when to try again: the error handler sends `retryAfter` (seconds) as the Retry-After header too. */
export const tooManyRequests = (message: string, retryAfter: number, code?: string) =>
  new AppError(429, message, undefined, code ? { retryAfter, code } : { retryAfter });
