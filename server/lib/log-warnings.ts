/**
 * Warnings and worse of the server's log, held for the log collector (decision 125): pino's logMethod hook notes
 * each, in the process, and the syslog job moves them into `syslog_outbox` (durable) before it sends. Held only once
 * the job has started (SYSLOG_URL set); at most MAX_HELD, the oldest dropped first (and counted) if the database is
 * down that long; they are in the log files either way.
 */

export interface HeldWarning {
  loggedAt: Date;
  /** RFC 5424 severity: 4 warning, 3 error, 2 critical. */
  severity: number;
  message: string;
  data: Record<string, unknown>;
}

const MAX_HELD = 10_000;
let held: HeldWarning[] | null = null;
let dropped = 0;

/** pino level → RFC 5424 severity: warn 4, error 3, fatal 2. */
export const severityOf = (level: number) => (level >= 60 ? 2 : level >= 50 ? 3 : 4);

/** An error (or anything) as JSON the collector can read: its type, message and code, never a stack. */
function plain(value: unknown): unknown {
  if (value instanceof Error) {
    return { type: value.name, message: value.message, ...('code' in value ? { code: value.code } : {}) };
  }
  return value;
}

/** Notes one log call of `level` (its pino arguments: an object and/or a message). */
export function noteLogCall(args: unknown[], level: number): void {
  if (!held || level < 40) return;
  const [first, second] = args;
  const message =
    typeof first === 'string'
      ? first
      : typeof second === 'string'
        ? second
        : first instanceof Error
          ? first.message
          : '';
  const data: Record<string, unknown> = {};
  if (first instanceof Error) data.err = plain(first);
  else if (first && typeof first === 'object') {
    for (const [k, v] of Object.entries(first)) data[k] = plain(v);
  }
  held.push({ loggedAt: new Date(), severity: severityOf(level), message, data });
  if (held.length > MAX_HELD) {
    held.shift();
    dropped++;
  }
}

/** pino's hooks: every call goes on as before, a warning or worse is also noted. */
export const logHooks = {
  logMethod(this: unknown, args: unknown[], method: { apply(self: unknown, args: unknown[]): unknown }, level: number) {
    noteLogCall(args, level);
    method.apply(this, args);
  },
};

/** Starts holding warnings (the syslog job, SYSLOG_URL set). */
export function holdWarnings(): void {
  held ??= [];
}

/** Stops holding them and forgets what is held. */
export function stopHoldingWarnings(): void {
  held = null;
}

/** Takes what is held, and how many were dropped since the last take. */
export function takeWarnings(): { warnings: HeldWarning[]; dropped: number } {
  const warnings = held ? held.splice(0) : [];
  const lost = dropped;
  dropped = 0;
  return { warnings, dropped: lost };
}

/** Puts back warnings the database did not take, ahead of newer ones. */
export function putBackWarnings(warnings: HeldWarning[]): void {
  if (held) held.unshift(...warnings.slice(-MAX_HELD));
}
