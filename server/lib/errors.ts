import {
  type CodedMessage,
  codeOf,
  isMessageCode,
  type MessageCode,
  type MessageParams,
  messageText,
} from '#shared/messages/index.ts';

/**
 * A failure the client caused or may see: its status, its stable `code` from the message catalogue
 * (shared/messages, decision 034), the values of the sentence's `{{places}}`, and the input it concerns. `message`
 * is the catalogue's English sentence, filled in: the spec's text, which the API sends as `error` and `message`.
 */
export class AppError extends Error {
  readonly code: MessageCode;
  readonly params?: MessageParams;
  constructor(
    readonly statusCode: number,
    code: MessageCode,
    params?: MessageParams,
    readonly field?: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(messageText(code, params));
    this.code = code;
    if (params) this.params = params;
  }
}

export const badRequest = (code: MessageCode, field?: string, params?: MessageParams) =>
  new AppError(400, code, params, field);
export const unauthorized = (code: MessageCode = 'auth.sign_in_required', params?: MessageParams) =>
  new AppError(401, code, params);
export const forbidden = (
  code: MessageCode = 'common.forbidden',
  params?: MessageParams,
  extra?: Record<string, unknown>,
) => new AppError(403, code, params, undefined, extra);
export const notFound = (code: MessageCode = 'common.not_found', params?: MessageParams) =>
  new AppError(404, code, params);
export const conflict = (code: MessageCode, field?: string, params?: MessageParams) =>
  new AppError(409, code, params, field);
export const tooLarge = (code: MessageCode, params?: MessageParams) => new AppError(413, code, params);

/**
 * The code of a validation failure: the one a custom issue carries (codedIssue in shared/schemas/common.ts puts it in
 * the issue's `params.coded`), else the one its sentence was made from (msg()), else the sentence as it came (a
 * library's) under `common.unclassified`; `common.invalid_input` when there is no sentence at all.
 */
export function codedValidation(message: string | undefined, issueParams?: unknown): CodedMessage {
  const carried = (issueParams as { coded?: Partial<CodedMessage> } | undefined)?.coded;
  if (carried?.code && isMessageCode(carried.code)) return carried as CodedMessage;
  if (!message) return { code: 'common.invalid_input' };
  return codeOf(message) ?? { code: 'common.unclassified', params: { message } };
}

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
  error: messageText('database.unavailable'),
  message: messageText('database.unavailable'),
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
export const tooManyRequests = (code: MessageCode, retryAfter: number, params?: MessageParams) =>
  new AppError(429, code, params, undefined, { retryAfter });
