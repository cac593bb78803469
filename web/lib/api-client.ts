import type { CodedMessage, MessageParams } from '#shared/messages/index.ts';

import { loadedMessages, loadMessages } from '#web/i18n/index.ts';

import { clearLogin, getToken } from './auth-storage.ts';

/**
 * A failed API call. `message` is the server's sentence (its `error` or `message` field, spec §8) or '' when the
 * server said nothing usable (network down, HTML error page): screens then show their own words, e.g.
 * `err.message || t('loginFailed')`. `field` names the input the message is about; `body` is the whole answer;
 * `coded` is the message's code and parameters (shared/messages), by which the screens word it in the reader's
 * language (translateCoded in web/i18n): set when the body's `code` is one of the catalogue's, which the client has
 * loaded before it throws (errorFrom).
 */
export class ApiError extends Error {
  readonly coded?: CodedMessage;
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
    const code = typeof body?.code === 'string' ? body.code : '';
    const messages = loadedMessages();
    if (message && messages?.isMessageCode(code)) {
      const params = body?.params && typeof body.params === 'object' ? (body.params as MessageParams) : undefined;
      this.coded = params ? { code, params } : { code };
      // A sentence put on a form's input is found again by its code (translateMessage).
      messages.rememberMessage(message, this.coded);
    }
  }
}

/** Where a 401 on a signed-in call sends the person; the router sets it so the move is client-side. */
let onUnauthorized: () => void = () => window.location.assign('/login');
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

/**
 * The step-up before classified letters (decision 066): a call refused with 401 `auth.step_up_required` is handed
 * to this handler (the "Confirm it is you" dialog, mounted by the root layout) with the ways the person may answer;
 * when it resolves true (the check was given) the call is sent again and the screen carries on as if it had never
 * been refused; false (cancelled) lets the refusal through to the screen. Without a handler (none mounted within STEP_UP_HANDLER_WAIT_MS) the
 * refusal goes through.
 */
export type StepUpHandler = (methods: string[]) => Promise<boolean>;
let onStepUp: StepUpHandler | null = null;
let stepUpMounted: Promise<void>;
let markStepUpMounted: () => void;
const waitForStepUpHandler = () => {
  stepUpMounted = new Promise<void>((resolve) => (markStepUpMounted = resolve));
};
waitForStepUpHandler();
export function setStepUpHandler(handler: StepUpHandler | null): void {
  onStepUp = handler;
  if (handler) markStepUpMounted();
  else waitForStepUpHandler();
}
/** How long a refused call waits for the dialog's code, loaded with the first signed-in page, before giving up. */
export const STEP_UP_HANDLER_WAIT_MS = 10_000;
/**
 * The dialog is loaded lazily with the first signed-in page, so a Secret letter opened at once can be refused before
 * its handler is mounted: the call waits for it (a while, not for ever) rather than failing the screen.
 */
async function stepUpHandler(): Promise<StepUpHandler | null> {
  if (onStepUp) return onStepUp;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    stepUpMounted,
    new Promise<void>((resolve) => (timer = setTimeout(resolve, STEP_UP_HANDLER_WAIT_MS))),
  ]);
  clearTimeout(timer);
  return onStepUp;
}
export const STEP_UP_CODE = 'auth.step_up_required';
/** Is this a refusal that a step-up would lift (for a screen that asks before opening a link)? */
export const needsStepUp = (err: unknown) =>
  err instanceof ApiError && err.status === 401 && err.body?.code === STEP_UP_CODE;
/** Where a 403 "pass your second factor first" on a signed-in call sends the person (decision 064); set by the router. */
let onSecondFactor: () => void = () => window.location.assign('/login/second-factor');
export function setSecondFactorHandler(handler: () => void): void {
  onSecondFactor = handler;
}
const SECOND_FACTOR_CODES = new Set(['auth.second_factor_required', 'auth.second_factor_enrolment_required']);

type Query = Record<string, string | number | boolean | null | undefined>;
export interface RequestOptions {
  /** Query string values; null and undefined are left out. */
  params?: Query;
  signal?: AbortSignal;
  /** false: a refusal for want of the step-up is thrown as it came, never asked for (a line a card shows by the way). */
  askStepUp?: false;
}
export interface UploadOptions {
  method?: 'POST' | 'PUT';
  /** Whole percent sent so far, 0–100. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

function withParams(url: string, params?: Query): string {
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== null && value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `${url}${url.includes('?') ? '&' : '?'}${text}` : url;
}

/**
 * The ApiError of a refused call. A refusal with a code waits for the refusals' texts (in the reader's language and
 * English, loaded after the first page: decision 087), so that the screen words it by its code from the first one.
 */
async function errorFrom(status: number, body: unknown): Promise<ApiError> {
  const data = body && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  if (text(data?.code)) await loadMessages();
  return new ApiError(status, text(data?.error) || text(data?.message), text(data?.field) || undefined, data);
}

/**
 * A 401 on a call that carried a token: the login expired or was revoked, so forget it and go to /login. Unless the
 * stored token is no longer the one sent: "Stay signed in" (which ends the old session) or a new sign-in replaced it
 * while the call was on its way, and the login that is stored now is still good.
 */
function handleUnauthorized(status: number, sentToken: string | null, url: string, data?: unknown): void {
  const code = (data as { code?: unknown } | undefined)?.code;
  if (status === 403 && sentToken && typeof code === 'string' && SECOND_FACTOR_CODES.has(code)) {
    if (!url.startsWith('/api/auth/second-factor')) onSecondFactor();
    return;
  }
  if (status === 401 && sentToken && sentToken === getToken() && !url.startsWith('/api/auth/login')) {
    clearLogin();
    onUnauthorized();
  }
}

function parse(text: string, contentType: string | null): unknown {
  if (!text) return undefined;
  if (contentType?.includes('application/json')) {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  return text;
}

async function request<T>(
  method: string,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
  retried = false,
): Promise<T> {
  const token = getToken();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const isForm = body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(withParams(url, options.params), {
      method,
      headers,
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, ''); // offline or server down: the screen words it
  }
  const data = parse(await res.text(), res.headers.get('content-type'));
  if (res.status === 401 && (data as { code?: unknown } | undefined)?.code === STEP_UP_CODE) {
    // Still signed in: not the sign-out of handleUnauthorized. A refused call did nothing, so a write is safe to resend.
    const methods = (data as { methods?: unknown }).methods;
    const ask = options.askStepUp === false ? null : await stepUpHandler();
    if (ask && (await ask(Array.isArray(methods) ? methods.map(String) : []))) {
      return request<T>(method, url, body, options, retried);
    }
    throw await errorFrom(res.status, data);
  }
  if (!res.ok) {
    // Refused for a session that was replaced meanwhile (see handleUnauthorized): once more with the new token. A
    // refused call did nothing on the server, so a write is safe to send again.
    const current = getToken();
    if (res.status === 401 && token && current && current !== token && !retried)
      return request<T>(method, url, body, options, true);
    handleUnauthorized(res.status, token, url, data);
    throw await errorFrom(res.status, data);
  }
  return data as T;
}

/** Uploads with XMLHttpRequest, which (unlike fetch) reports upload progress for the progress bars. */
function upload<T>(url: string, formData: FormData, options: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const token = getToken();
    xhr.open(options.method ?? 'POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const data = parse(xhr.responseText, xhr.getResponseHeader('content-type'));
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(100);
        resolve(data as T);
      } else {
        handleUnauthorized(xhr.status, token, url, data);
        void errorFrom(xhr.status, data).then(reject);
      }
    };
    xhr.onerror = () => reject(new ApiError(0, ''));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(formData);
  });
}

/** The one client of our API: bearer token from the stored login, JSON or FormData, ApiError on failure. */
export const api = {
  get: <T>(url: string, options?: RequestOptions) => request<T>('GET', url, undefined, options),
  post: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('POST', url, body ?? {}, options),
  put: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', url, body ?? {}, options),
  del: <T = void>(url: string, options?: RequestOptions) => request<T>('DELETE', url, undefined, options),
  upload,
};
