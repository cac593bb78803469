import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

import { createdAt, id } from './common.ts';
import { users } from './users.ts';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * Counters of rate-limiter-flexible's RateLimiterPostgres (sign-in failures, registrations per address): its own
 * table layout, created here so that migrations own it (decision 014). `expire` is milliseconds since 1970.
 */
export const rateLimits = pgTable('rate_limits', {
  key: varchar({ length: 255 }).primaryKey(),
  points: integer().notNull().default(0),
  expire: bigint({ mode: 'number' }),
});

/** How a session began: the portal's password, the lab's directory, or single sign-on. */
export type SessionMethod = 'password' | 'directory' | 'sso';
/** The second factor a session was proven with, if any. */
export type SecondFactorKind = 'totp' | 'passkey' | 'recovery';

/**
 * Every session (one sign-in): the token's `sid` is its id. A token is accepted only while its row is not ended, so
 * signing out (one session or all), a directory account disabled or removed from its groups, and an admin's action all
 * take effect at the next request. `verifiedAt` is the last time the person proved who they are (the sign-in, or a
 * step-up before Secret letters); `secondFactor` says whether and how this session passed a second factor.
 * Rows are kept a day past their token's expiry, then swept (decision 061, replacing revoked_sessions of 047).
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    method: text().$type<SessionMethod>().notNull(),
    secondFactor: text().$type<SecondFactorKind>(),
    verifiedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    endedAt: timestamp({ withTimezone: true }),
    /** The client's address (through TRUST_PROXY) and browser, shown in My Account → Security. */
    address: text().notNull().default(''),
    userAgent: text().notNull().default(''),
    /** The provider's ID token of a single sign-on session, for RP-initiated logout. */
    ssoIdToken: text(),
  },
  (t) => [
    index('sessions_user_live_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.endedAt} is null`),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);

/**
 * A person's second factors: TOTP apps (`totpSecret`, encrypted with a key derived from the JWT secret) and passkeys
 * (WebAuthn credential id, public key and signature counter). A factor counts once `confirmedAt` is set (the person
 * typed a code from it, or the authenticator's registration was verified).
 */
export const userFactors = pgTable(
  'user_factors',
  {
    id: id(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text().$type<'totp' | 'passkey'>().notNull(),
    label: text().notNull().default(''),
    totpSecret: text(),
    credentialId: text(),
    publicKey: bytea(),
    counter: bigint({ mode: 'number' }).notNull().default(0),
    transports: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    confirmedAt: timestamp({ withTimezone: true }),
    lastUsedAt: timestamp({ withTimezone: true }),
    /** The last TOTP time step accepted: a code is used at most once. */
    lastTotpStep: bigint({ mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [index('user_factors_user_idx').on(t.userId), uniqueIndex('user_factors_credential_idx').on(t.credentialId)],
);

/** One-time recovery codes (10 per enrolment), argon2id-hashed; a used one keeps its row with `usedAt`. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * One-time codes that hand a single sign-on's result to the web app (decision 063): the callback stores the SHA-256
 * of a random code with the account and the provider's ID token, redirects to `/login?sso=<code>`, and
 * `POST /api/auth/sso/exchange` deletes the row as it reads it (single use) within a minute of its making.
 */
export const ssoExchangeCodes = pgTable(
  'sso_exchange_codes',
  {
    codeHash: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idToken: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sso_exchange_codes_expires_idx').on(t.expiresAt)],
);

/**
 * A first single sign-on an administrator must link by hand (decision 090): the provider named an email that is an
 * unlinked account's, but did not say it verified it, so the portal may not link them by itself (decision 063). One row
 * per provider identity (issuer and subject); a repeat sign-in moves its time. Approving links the account and deletes
 * the row; dismissing deletes it; so does the account's removal.
 */
export const ssoLinkRequests = pgTable(
  'sso_link_requests',
  {
    id: id(),
    issuer: text().notNull(),
    subject: text().notNull(),
    /** The provider's `email` and `name` claims as they came (the email lowercased, as accounts keep it). */
    email: text().notNull(),
    name: text(),
    /** The account it would link to: the one with that email when the person signed in. */
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sso_link_requests_identity_idx').on(t.issuer, t.subject),
    index('sso_link_requests_user_idx').on(t.userId),
  ],
);

/** What a WebAuthn challenge was handed out for: adding a passkey, or signing with one. */
export type WebauthnPurpose = 'registration' | 'authentication';

/**
 * The challenges of WebAuthn ceremonies in progress (passkeys, decision 065): each is handed to one person for one
 * purpose, lives 5 minutes and is deleted by the answer that uses it (used once, right or wrong). Kept in PostgreSQL
 * rather than in a signed token so that a second answer with the same challenge finds nothing, on any node.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text().$type<WebauthnPurpose>().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('webauthn_challenges_user_idx').on(t.userId, t.purpose),
    index('webauthn_challenges_expires_idx').on(t.expiresAt),
  ],
);

/**
 * "Forgot password" links (decision 077): one row per request of a local account. The link's token is never
 * stored: it is the HMAC of the row's id under a key derived from the JWT secret (made again when the mail is
 * written), and the row keeps its SHA-256 only. A token works once (`usedAt`), for 30 minutes (`expiresAt`); a
 * reset uses up every other token of the account too.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: id(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_idx').on(t.tokenHash),
    index('password_reset_tokens_user_idx').on(t.userId),
  ],
);
export type PasswordResetTokenRow = typeof passwordResetTokens.$inferSelect;
