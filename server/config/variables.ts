import { z } from 'zod';

/**
 * The pieces every schema of the environment is made of (docs/decisions/105; README "Configuration"). Every refusal
 * names its variable and what it got, so "Lab Portal cannot start: ..." (main.ts) tells the operator which line of
 * their environment to fix. An empty variable counts as unset (a service file's `PORT=` means the default).
 */

export const MB = 1024 * 1024;

/** A setting the operator must fix before the portal can start. */
export class ConfigError extends Error {}

export type Ctx = z.RefinementCtx;

/** Records the refusal; zod then reports it with the others. */
export function refuse(ctx: Ctx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER as never;
}

/** One variable: unset or empty → `parse(undefined)`, else `parse(value)`. */
export function variable<T>(parse: (value: string | undefined, ctx: Ctx) => T) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => parse(value === '' ? undefined : value, ctx));
}

export const text = (fallback?: string) => variable((v) => v ?? fallback);

export function wholeNumber(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) {
  return variable((v, ctx) => {
    if (v === undefined) return fallback;
    const n = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (n >= min && n <= max) return n;
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    return refuse(ctx, `${name} must be a whole number ${range} (got "${v}").`);
  });
}

export function byteSize(name: string, fallback: number) {
  return variable((v, ctx) => {
    if (v === undefined) return fallback;
    const n = v.trim() === '' ? NaN : Number(v);
    if (Number.isFinite(n) && n >= 1) return Math.floor(n);
    return refuse(ctx, `${name} must be a number of bytes of at least 1 (got "${v}").`);
  });
}

export function flag(name: string, fallback: boolean) {
  return variable((v, ctx) => {
    if (v === undefined) return fallback;
    if (v === 'true' || v === 'false') return v === 'true';
    return refuse(ctx, `${name} must be true or false (got "${v}").`);
  });
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An absolute http(s) address; plain http only for this machine (a provider in a test, a portal in development).
 * `base`: the portal's own address, kept without a trailing slash; an issuer is kept as written (it must match the
 * provider's `iss` to the letter, and some end in "/").
 */
export function webAddress(name: string, base = false) {
  return variable((v, ctx) => {
    if (v === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      return refuse(ctx, `${name} must be an https:// address (got "${v}").`);
    }
    const loopback = LOOPBACK_HOSTS.has(url.hostname);
    if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) return base ? v.replace(/\/+$/, '') : v;
    return refuse(ctx, `${name} must be an https:// address (got "${v}"); http:// is accepted for localhost only.`);
  });
}
