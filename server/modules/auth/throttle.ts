import type { Redis } from 'ioredis';
import type pg from 'pg';
import { type RateLimiterAbstract, RateLimiterPostgres, RateLimiterRedis } from 'rate-limiter-flexible';

import type { CodedMessage } from '#shared/messages/index.ts';

import { deviceCookieKey, newDeviceCookie, trustedDevice } from '#server/lib/device-cookie.ts';
import { tooManyRequests } from '#server/lib/errors.ts';

/**
 * Failure throttling for sign-in and password checks, and per-address limits on registration and feedback (
 * decision 014; decision 026). OWASP's "Login endpoint protection" as rate-limiter-flexible's wiki builds
 * it: failures are counted per account and per address, a success is never counted and clears its account's failures,
 * and past a number of failures the account (or the address) waits, longer after each further failure. Each check is
 * reserved in the store before it runs, so concurrency cannot exceed the allowance; and OWASP's device cookies keep
 * the owner's own browser out of the account's lock (device-cookie.ts).
 *
 * The counters live in a shared store so that several portal processes see the same numbers. The store is passed in:
 * PostgreSQL (the portal's own database) by default, Redis when REDIS_URL is set (decisions 014 and 052).
 */

/** Makes one limiter: `points` per `duration` seconds, keys prefixed by `keyPrefix`. */
export type LimiterStore = (opts: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;

/** Limiters on the portal's PostgreSQL (table `rate_limits`, created by the migrations). */
export const postgresStore =
  (pool: pg.Pool): LimiterStore =>
  (opts) =>
    new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      ...opts,
    });

/**
 * Limiters on a Redis server shared by every node (REDIS_URL). While Redis does not answer, `fallback` (the PostgreSQL
 * store) counts instead (rate-limiter-flexible's insurance limiter), so an outage never opens or shuts the door.
 */
export const redisStore =
  (client: Redis, fallback: LimiterStore): LimiterStore =>
  (opts) =>
    new RateLimiterRedis({
      storeClient: client,
      keyPrefix: `lab-portal:${opts.keyPrefix}`,
      points: opts.points,
      duration: opts.duration,
      insuranceLimiter: fallback(opts),
    });

export interface ThrottleSettings {
  /** Failed sign-ins (or password checks) of one account, in a row, after which it must wait (LOGIN_ACCOUNT_FAILURES). */
  loginAccountFailures: number;
  /** Failed sign-ins from one address in a day after which it must wait (LOGIN_ADDRESS_FAILURES). */
  loginAddressFailures: number;
  /** Registrations accepted from one address per hour (REGISTRATIONS_PER_ADDRESS). */
  registrationsPerAddress: number;
  /** Feedback messages accepted from one address per hour (FEEDBACK_RATE_LIMIT). */
  feedbackRateLimit: number;
  /** Device cookies are signed under a key derived from it (device-cookie.ts). */
  jwtSecret: string;
}

const HOUR = 60 * 60;
const DAY = 24 * HOUR;
/** The first wait; each further failure doubles it, up to an hour. */
export const FIRST_WAIT_SECONDS = 30;
export const LONGEST_WAIT_SECONDS = HOUR;

/** "45 seconds", "1 minute", "15 minutes", "1 hour": when to try again, in words. */
export function waitInWords(seconds: number): CodedMessage {
  if (seconds < 60) return { code: 'common.wait_seconds', params: { count: seconds } };
  if (seconds < HOUR) return { code: 'common.wait_minutes', params: { count: Math.ceil(seconds / 60) } };
  return { code: 'common.wait_hours', params: { count: Math.ceil(seconds / HOUR) } };
}

/** How long to wait after the `n`th failure when `free` are allowed: 30 s, 1 min, 2 min … at most an hour. */
export const waitAfter = (n: number, free: number) =>
  Math.min(LONGEST_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** Math.max(0, n - free));

export type Throttle = ReturnType<typeof createThrottle>;

/**
 * Who tries a password: the account (the login as typed, or the person's key once known: accountKeyOf in
 * auth.service.ts), the client's address and its device cookie (if it sent one).
 */
export interface PasswordAttempt {
  account: string;
  address: string;
  deviceCookie?: string | undefined;
}

/**
 * A login as the counters key it (decision 094): NFKC, so that fullwidth letters count as the ASCII ones a directory
 * matches them to, then trimmed and in lower case, as the directory and the portal's email lookup compare logins.
 */
export const loginKey = (login: string) => login.normalize('NFKC').trim().toLowerCase();

const accountMessage = (seconds: number) =>
  tooManyRequests('auth.account_locked', seconds, { wait: waitInWords(seconds) });

/** The sign-in, password and registration limits on one store. */
export function createThrottle(store: LimiterStore, settings: ThrottleSettings) {
  // Failures (their points are never exhausted: the lock below decides) and locks per account (for untrusted
  // sources), per device cookie (for the browser that carries it) and per address.
  const accountFailures = store({ keyPrefix: 'login_fail_account', points: 1_000_000, duration: DAY });
  const accountLock = store({ keyPrefix: 'login_lock_account', points: 1, duration: 1 });
  const deviceFailures = store({ keyPrefix: 'login_fail_device', points: 1_000_000, duration: DAY });
  const deviceLock = store({ keyPrefix: 'login_lock_device', points: 1, duration: 1 });
  const addressFailures = store({ keyPrefix: 'login_fail_address', points: 1_000_000, duration: DAY });
  const addressLock = store({ keyPrefix: 'login_lock_address', points: 1, duration: 1 });
  const registrations = store({
    keyPrefix: 'register_address',
    points: settings.registrationsPerAddress,
    duration: HOUR,
  });
  const feedback = store({ keyPrefix: 'feedback_address', points: settings.feedbackRateLimit, duration: HOUR });
  // Forgot password (decision 077): requests per typed email, as many an hour as sign-in failures are allowed in a row;
  // requests and uses of links per address, as many a day as its sign-in failures.
  const resetAccount = store({ keyPrefix: 'reset_account', points: settings.loginAccountFailures, duration: HOUR });
  const resetAddress = store({ keyPrefix: 'reset_address', points: settings.loginAddressFailures, duration: DAY });
  const deviceKey = deviceCookieKey(settings.jwtSecret);
  const free = settings.loginAccountFailures;

  /** Seconds left on a lock, or 0: a lock key holds a point while it lasts (a claimed attempt, or `block()`). */
  const secondsLocked = async (lock: RateLimiterAbstract, key: string) => {
    const res = await lock.get(key);
    return res && res.consumedPoints > 0 ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
  };
  /** Takes a point of `limiter` for `key`: 0 when granted, else the seconds until the next one. */
  const secondsRefused = async (limiter: RateLimiterAbstract, key: string) => {
    try {
      await limiter.consume(key);
      return 0;
    } catch (res) {
      if (res instanceof Error) throw res;
      return Math.max(1, Math.ceil((res as { msBeforeNext: number }).msBeforeNext / 1000));
    }
  };

  /**
   * Reserves one password check of `key` before it runs, atomically in the store (decision 026): the failure
   * counter is raised first (one upsert in PostgreSQL, one INCRBY script in Redis), so concurrent attempts each get
   * their own number. The first `free - 1` go ahead; from the `free`th on, an attempt must also claim the lock (the
   * lock key's single point, taken atomically for the wait that follows it), which one attempt per lock period wins.
   * So at most `free` checks run before the first wait, and one per wait after it, under any concurrency.
   */
  const reserve = async (failures: RateLimiterAbstract, lock: RateLimiterAbstract, key: string) => {
    const n = (await failures.penalty(key)).consumedPoints;
    if (n < free) return false;
    try {
      await lock.consume(key, 1, { customDuration: waitAfter(n, free) });
      return true;
    } catch (res) {
      await failures.reward(key); // refused before any check: not a failure of its own
      if (res instanceof Error) throw res;
      throw accountMessage(Math.max(1, Math.ceil((res as { msBeforeNext: number }).msBeforeNext / 1000)));
    }
  };

  /** Throws 429 while the account (for an untrusted source) or the address must wait. */
  const refuseIfLocked = async (key: string, address: string) => {
    const [account, fromAddress] = await Promise.all([
      secondsLocked(accountLock, key),
      secondsLocked(addressLock, address),
    ]);
    if (account) throw accountMessage(account);
    if (fromAddress) {
      throw tooManyRequests('auth.network_locked', fromAddress, { wait: waitInWords(fromAddress) });
    }
  };

  /** Counts a failure of an untrusted source against its address; locks the address past its allowance. */
  const addressFailed = async (address: string) => {
    const fromAddress = await addressFailures.penalty(address);
    if (fromAddress.consumedPoints >= settings.loginAddressFailures) {
      await addressLock.block(address, waitAfter(fromAddress.consumedPoints, settings.loginAddressFailures));
    }
  };

  return {
    /**
     * Runs `check` (a password check) unless the throttle refuses it with 429, and counts its outcome: an error for
     * which `wrong` holds is a failure, a result a success (which clears the failures it counted), any other error
     * neither. The account is the login typed (normalised: loginKey), so an unknown login is answered exactly like a
     * real one, or the person's own key once the login has been looked up (a directory entry's DN, decision 094), so
     * that every form of one person's login shares one count.
     *
     * A request with a valid device cookie for this account (device-cookie.ts) is trusted: its failures count against
     * that cookie only, and the account's and address's locks for untrusted sources do not stop it. A cookie locked
     * by its own failures is untrusted again (OWASP's scheme). A success from an untrusted source clears the account's
     * failures; a success from a trusted device clears that device's only, so a guesser does not get fresh attempts
     * each time the owner signs in. The address keeps its count: one valid account must not wipe the failures its
     * address made against other accounts.
     */
    async passwordCheck<T>(attempt: PasswordAttempt, check: () => Promise<T>, wrong: (err: unknown) => boolean) {
      const key = loginKey(attempt.account);
      let device = trustedDevice(deviceKey, key, attempt.deviceCookie);
      if (device && (await secondsLocked(deviceLock, device))) device = null;
      const [failures, lock, counted] = device
        ? [deviceFailures, deviceLock, device]
        : [accountFailures, accountLock, key];
      if (!device) await refuseIfLocked(key, attempt.address);
      const claimed = await reserve(failures, lock, counted);
      let result: T;
      try {
        result = await check();
      } catch (err) {
        if (wrong(err)) {
          if (!device) await addressFailed(attempt.address);
        } else {
          // Neither right nor wrong (a refused account, a lost database): the reservation is given back.
          await Promise.all([failures.reward(counted), claimed ? lock.delete(counted) : null]);
        }
        throw err;
      }
      await Promise.all([failures.delete(counted), lock.delete(counted)]);
      return result;
    },

    /**
     * Counts a "forgot password" request from this address for this email (typed, known or not: the same count either
     * way), or without `email` a use of a reset link; throws 429 past either allowance (decision 077).
     */
    async passwordReset(address: string, email?: string) {
      const refused = (seconds: number) =>
        tooManyRequests('auth.reset_rate_limited', seconds, { wait: waitInWords(seconds) });
      const fromAddress = await secondsRefused(resetAddress, address);
      if (fromAddress) throw refused(fromAddress);
      if (email === undefined) return;
      const forAccount = await secondsRefused(resetAccount, loginKey(email));
      if (forAccount) throw refused(forAccount);
    },

    /** After a password reset by mail the account's failed sign-ins are forgotten: its owner proved their mailbox. */
    async clearAccount(account: string) {
      const key = loginKey(account);
      await Promise.all([accountFailures.delete(key), accountLock.delete(key)]);
    },

    /** A fresh device cookie value for this account (the key its sign-in was counted under), after its success. */
    deviceCookieFor: (account: string) => newDeviceCookie(deviceKey, loginKey(account)),

    /** Counts a registration from this address; throws 429 past the hourly allowance. */
    async registration(address: string) {
      const seconds = await secondsRefused(registrations, address);
      if (seconds) {
        throw tooManyRequests('auth.registrations_rate_limited', seconds, { wait: waitInWords(seconds) });
      }
    },

    /**
     * Counts a feedback message from this address; throws 429 past FEEDBACK_RATE_LIMIT an hour (decision 042),
     * saying the real wait in whole minutes (the Hindi table words them: web/i18n/locales/hi/site.json).
     */
    async feedback(address: string) {
      const seconds = await secondsRefused(feedback, address);
      if (seconds) {
        const minutes = Math.ceil(seconds / 60);
        throw tooManyRequests('site.feedback_rate_limited', seconds, {
          wait: { code: 'common.wait_minutes', params: { count: minutes } },
        });
      }
    },
  };
}
