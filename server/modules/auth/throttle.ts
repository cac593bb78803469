import type { Redis } from 'ioredis';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooManyRequests } from '#server/lib/errors.ts';

/**
 * Failure throttling for sign-in and password checks, and a per-address limit on registration (issue 13, decision
 * 014). OWASP's "Login endpoint protection" as rate-limiter-flexible's wiki builds it: failures are counted per account
 * and per address, a success is never counted and clears its account's failures, and past a number of failures the
 * account (or the address) waits, longer after each further failure.
 *
 * The counters live in a shared store so that several portal processes see the same numbers. The store is passed in:
 * PostgreSQL (the portal's own database) by default, Redis when REDIS_URL is set (decision 017).
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
}

const HOUR = 60 * 60;
const DAY = 24 * HOUR;
/** The first wait; each further failure doubles it, up to an hour. */
export const FIRST_WAIT_SECONDS = 30;
export const LONGEST_WAIT_SECONDS = HOUR;

/** "45 seconds", "1 minute", "15 minutes", "1 hour": when to try again, in words. */
export function waitInWords(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return plural(seconds, 'second');
  if (seconds < HOUR) return plural(Math.ceil(seconds / 60), 'minute');
  return plural(Math.ceil(seconds / HOUR), 'hour');
}

/** How long to wait after the `n`th failure when `free` are allowed: 30 s, 1 min, 2 min … at most an hour. */
export const waitAfter = (n: number, free: number) =>
  Math.min(LONGEST_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** Math.max(0, n - free));

export type Throttle = ReturnType<typeof createThrottle>;

/** The sign-in, password and registration limits on one store. */
export function createThrottle(store: LimiterStore, settings: ThrottleSettings) {
  // Counters (their points are never exhausted: the lock below decides) and locks (blocked keys) per account/address.
  const accountFailures = store({ keyPrefix: 'login_fail_account', points: 1_000_000, duration: DAY });
  const accountLock = store({ keyPrefix: 'login_lock_account', points: 1, duration: 1 });
  const addressFailures = store({ keyPrefix: 'login_fail_address', points: 1_000_000, duration: DAY });
  const addressLock = store({ keyPrefix: 'login_lock_address', points: 1, duration: 1 });
  const registrations = store({
    keyPrefix: 'register_address',
    points: settings.registrationsPerAddress,
    duration: HOUR,
  });

  /** Seconds left on a lock, or 0. `block()` stores points + 1, so a blocked key has more points than allowed. */
  const secondsLocked = async (lock: RateLimiterAbstract, key: string) => {
    const res = await lock.get(key);
    return res && res.consumedPoints > lock.points ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
  };
  const accountKey = (email: string) => email.trim().toLowerCase();

  return {
    /**
     * Throws 429 while the account or the address must wait. Called before the password is checked, with the email
     * as typed (normalised), so an unknown email is answered exactly like a real one.
     */
    async beforePasswordCheck(email: string, address: string) {
      const [account, fromAddress] = await Promise.all([
        secondsLocked(accountLock, accountKey(email)),
        secondsLocked(addressLock, address),
      ]);
      if (account) {
        throw tooManyRequests(
          `Too many failed sign-in attempts for this account. Please try again in ${waitInWords(account)}.`,
          account,
        );
      }
      if (fromAddress) {
        throw tooManyRequests(
          `Too many failed sign-in attempts from your network. Please try again in ${waitInWords(fromAddress)}.`,
          fromAddress,
        );
      }
    },

    /** Counts a wrong password (or unknown email) for the account and the address; locks them past their allowance. */
    async passwordFailed(email: string, address: string) {
      const key = accountKey(email);
      const [account, fromAddress] = await Promise.all([
        accountFailures.penalty(key),
        addressFailures.penalty(address),
      ]);
      const locks: Promise<unknown>[] = [];
      if (account.consumedPoints >= settings.loginAccountFailures) {
        locks.push(accountLock.block(key, waitAfter(account.consumedPoints, settings.loginAccountFailures)));
      }
      if (fromAddress.consumedPoints >= settings.loginAddressFailures) {
        locks.push(addressLock.block(address, waitAfter(fromAddress.consumedPoints, settings.loginAddressFailures)));
      }
      await Promise.all(locks);
    },

    /**
     * A right password clears the account's failures. The address keeps its count: one valid account must not wipe
     * the failures its address made against other accounts.
     */
    async passwordSucceeded(email: string) {
      const key = accountKey(email);
      await Promise.all([accountFailures.delete(key), accountLock.delete(key)]);
    },

    /** Counts a registration from this address; throws 429 past the hourly allowance. */
    async registration(address: string) {
      try {
        await registrations.consume(address);
      } catch (res) {
        if (res instanceof Error) throw res;
        const seconds = Math.max(1, Math.ceil((res as { msBeforeNext: number }).msBeforeNext / 1000));
        throw tooManyRequests(
          `Too many registrations from your network. Please try again in ${waitInWords(seconds)}.`,
          seconds,
        );
      }
    },
  };
}
