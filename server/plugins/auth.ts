import { randomUUID } from 'node:crypto';

import cookie from '@fastify/cookie';
import jwt from '@fastify/jwt';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import type { Role } from '#shared/constants.ts';
import type { MessageCode, MessageParams } from '#shared/messages/index.ts';
import type { StepUpMethod } from '#shared/schemas/auth.ts';

import type { Config, StepUpClassification, StepUpConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { type SecondFactorKind, type SessionMethod, sessions, type UserRow, users } from '#server/db/schema/index.ts';
import { forbidden, unauthorized } from '#server/lib/errors.ts';
import { isUuid } from '#server/lib/ids.ts';
import { clientOf, type RequestClient } from '#server/lib/request-client.ts';
import { stepUpMethodsOf } from '#server/lib/step-up.policy.ts';

/** The signed-in person, loaded fresh from the database on every request. */
export interface Actor {
  id: string;
  email: string;
  name: string;
  role: Role;
  groupId: string | null;
  labId: string | null;
  /** Cleared by an admin for Confidential and Secret letters (decision 020). */
  cleared: boolean;
  /** The session this request was made in; absent for an actor built outside a request (jobs, tests, the demo). */
  session?: ActorSession;
}

/** The session of a signed-in request (the `sessions` row of its token, decision 061). */
export interface ActorSession {
  id: string;
  method: SessionMethod;
  /** The last time the person proved who they are in this session: the sign-in or a step-up. */
  verifiedAt: Date;
  /** Whether, and how, this session passed a second factor. */
  secondFactor: SecondFactorKind | null;
  /**
   * The step-up before classified letters (decision 066): the classifications it guards (STEP_UP_CLASSIFICATIONS)
   * and until when this session's last proof counts as fresh (`verifiedAt` + STEP_UP_MINUTES). letters.policy.ts
   * decides with it.
   */
  stepUp: { classifications: readonly StepUpClassification[]; freshUntil: Date; methods: readonly StepUpMethod[] };
}

/**
 * The portal's signed tokens and the sessions they name, as plain functions a service takes instead of the Fastify
 * instance (decision 104): `app.tokens`.
 */
export interface Tokens {
  /** Starts a session of `user` from this client (its `sessions` row) and answers its token. */
  startSession(db: Db, user: UserRow, client: RequestClient, start: SessionStart): Promise<string>;
  sign(payload: object, options?: { expiresIn: string }): string;
  /** The payload of a token signed by the portal and not expired; throws otherwise. */
  verify<T extends object>(token: string): T;
  decode<T extends object>(token: string): T | null;
}

/** The plain values a service of signing in works with (decision 104), made by its route: signInContext(req). */
export interface SignInContext {
  db: Db;
  tokens: Tokens;
  config: Config;
  client: RequestClient;
}

export const signInContext = (req: FastifyRequest): SignInContext => ({
  db: req.server.db,
  tokens: req.server.tokens,
  config: req.server.config,
  client: clientOf(req),
});

/** A sign-in's answer as its route sends it: one with a session's token sets the download cookie too. */
export function withTokenCookie<T extends object>(req: FastifyRequest, reply: FastifyReply, answer: T): T {
  if ('token' in answer && typeof answer.token === 'string') setTokenCookie(req, reply, answer.token);
  return answer;
}

/**
 * What the sign-in hook needs of second factors, handed over by server/app.ts from the MFA module (decision 104), so
 * that this plugin imports no module: whether a person must pass one (the installation's rule), and the columns of
 * their confirmed factors and recovery codes its one query reads.
 */
export interface SecondFactorHooks {
  required: (actor: Actor) => boolean;
  facts: (userId: SQL) => { factorKinds: SQL<string[]>; recoveryLeft: SQL<boolean> };
}

/** How a new session began, for its row (decision 061). */
export interface SessionStart {
  /** The session's id, when it was chosen before (a second-factor ticket's `sid`); else a new one. */
  id?: string;
  method: SessionMethod;
  secondFactor?: SecondFactorKind | null;
  /** Carried over by "stay signed in": the refreshed session keeps its sign-in's proof time. */
  verifiedAt?: Date;
  /** The provider's ID token (single sign-on), for RP-initiated logout. */
  ssoIdToken?: string | null;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    /** `sv`: the account's sessions version; `sid`: this session, which sign-out revokes (decision 047). */
    payload: { sub: string; sv: number; sid: string };
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Who is asking: the signed-in person (loaded fresh on every request), or null for a visitor. Set by the sign-in
     * hook on every route: a route that is not public never runs with null (signedInActor); a public route sees the
     * caller only when it declares `config: { identifies: true }`.
     */
    actor: Actor | null;
    /**
     * The staff directory's version (migration 0019), read with the session check of a signed-in request: the version of
     * the directory's cached answers (users.routes.ts). Unset for a visitor.
     */
    directoryVersion?: string;
    /**
     * The version of what a person's own reads are made from (migration 0034: letters, dak, notices, acknowledgements,
     * close groups), read with the session check: a version of their cached answers (server/lib/personal-cache.ts).
     * Unset for a visitor.
     */
    personalVersion?: string;
    /**
     * The versions of the signed-in person's own row and of their group's row (PostgreSQL's `xmin`: a new one with
     * every change), read with the session check: the version of their kept "who am I" answer. Unset for a visitor.
     */
    accountVersion?: string;
  }
  interface FastifyInstance {
    /** onRequest guard: a valid token of an approved, active account. */
    authenticate: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /**
     * Starts a session for this user (a `sessions` row, in `db`, which may be the caller's transaction) and signs its
     * token: used by every sign-in, the password change and "stay signed in". The request gives the address and browser.
     */
    startSession: (db: Db, user: UserRow, req: FastifyRequest, start: SessionStart) => Promise<string>;
    /** Signed tokens and sessions, for the services (decision 104). */
    tokens: Tokens;
    /** Every route declared `config: { public: true }` ("GET /api/health"): the reviewed list (decision 048). */
    publicRoutes: ReadonlySet<string>;
  }
  interface FastifyContextConfig {
    /** This route answers visitors: without it, every route needs a signed-in caller (deny by default). */
    public?: boolean;
    /**
     * A public route that serves signed-in staff more (the Archive, Feedback, the search, the lab home's files): the
     * sign-in hook sets `req.actor` when a valid token comes with the request, and treats a missing, expired or
     * refused one as a visitor (null).
     */
    identifies?: boolean;
    /**
     * A signed-in route open to a session that has not passed the second factor its person must have (decision 064):
     * "who am I" and the second-factor routes themselves. Every other route refuses such a session with 403
     * `auth.second_factor_required` or `auth.second_factor_enrolment_required`.
     */
    beforeSecondFactor?: boolean;
  }
}

/** The session a request presents: its bearer token, else (reads only) its download cookie. */
export function presentedToken(req: FastifyRequest, anyMethod = false): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  if (anyMethod || req.method === 'GET' || req.method === 'HEAD') return req.cookies[TOKEN_COOKIE];
  return undefined;
}

type TokenPayload = { sub: string; sv: number; sid: string; exp?: number };
const isSession = (p: Partial<TokenPayload>): p is TokenPayload =>
  isUuid(p.sub) && typeof p.sv === 'number' && isUuid(p.sid);

export const TOKEN_COOKIE = 'lp_token';

/** Sets the download cookie that goes with a newly issued token (login, password change). */
export function setTokenCookie(req: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(TOKEN_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: req.protocol === 'https',
    path: '/',
  });
}

/** Why an account that exists may not sign in or use its token (decision 003): the refusal's code and the status. */
export function refusalFor(
  user: Pick<UserRow, 'status' | 'statusReason'>,
): { code: MessageCode; params?: MessageParams; status: string } | null {
  switch (user.status) {
    case 'approved':
      return null;
    case 'pending':
      return { status: 'pending', code: 'auth.account_pending' };
    case 'rejected':
      return user.statusReason
        ? { status: 'rejected', code: 'auth.account_rejected_reason', params: { reason: user.statusReason } }
        : { status: 'rejected', code: 'auth.account_rejected' };
    case 'deactivated':
      return { status: 'deactivated', code: 'auth.account_deactivated' };
  }
}

/** The columns of a user row an Actor is made of. */
const actorColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  role: users.role,
  groupId: users.groupId,
  labId: users.labId,
  classifiedClearance: users.classifiedClearance,
};

export const toActor = (
  u: Pick<UserRow, 'id' | 'email' | 'name' | 'role' | 'groupId' | 'labId' | 'classifiedClearance'>,
  session?: ActorSession,
): Actor => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role,
  groupId: u.groupId,
  labId: u.labId,
  cleared: u.classifiedClearance,
  ...(session ? { session } : {}),
});

/** How long a session's row is kept past its token's expiry before it is swept (a day: the Security screen's history). */
const SESSION_ROW_GRACE_MS = 24 * 3600 * 1000;

/**
 * Bearer-token authentication (spec §4: the token is kept in browser storage), plus an httpOnly SameSite=Strict
 * cookie that is accepted only for GET/HEAD, so a file link opened in a new tab is authorised while no write can be
 * made with the cookie alone (decision 003). Deny by default (decision 048): one root onRequest hook authenticates
 * every route unless it declares `config: { public: true }`, so a forgotten guard is a 401, never a leak.
 */
export const authPlugin = fp<{
  secret: string;
  expiresIn: string;
  secondFactor: SecondFactorHooks;
  stepUp: StepUpConfig;
}>(async (app, opts) => {
  await app.register(cookie);
  await app.register(jwt, { secret: opts.secret, sign: { expiresIn: opts.expiresIn } });

  const tokens: Tokens = {
    async startSession(db, user, client, start) {
      const sid = start.id ?? randomUUID();
      const token = app.jwt.sign({ sub: user.id, sv: user.sessionsValidAfter.getTime(), sid });
      const { exp } = app.jwt.decode<{ exp?: number }>(token) ?? {};
      const expiresAt = new Date(typeof exp === 'number' ? exp * 1000 : Date.now() + SESSION_ROW_GRACE_MS);
      await db.delete(sessions).where(sql`${sessions.expiresAt} < now() - interval '1 day'`);
      await db.insert(sessions).values({
        id: sid,
        userId: user.id,
        method: start.method,
        secondFactor: start.secondFactor ?? null,
        verifiedAt: start.verifiedAt ?? new Date(),
        expiresAt,
        address: client.address ?? '',
        userAgent: client.userAgent ?? '',
        ssoIdToken: start.ssoIdToken ?? null,
      });
      return token;
    },
    // NOTE: @fastify/jwt's payload type is the session token's; a second-factor ticket is another kind of token.
    sign: (payload, options) => app.jwt.sign(payload as never, options),
    verify: (token) => app.jwt.verify(token),
    decode: (token) => app.jwt.decode(token),
  };
  app.decorate('tokens', tokens);
  app.decorate('startSession', (db: Db, user: UserRow, req: FastifyRequest, start: SessionStart) =>
    tokens.startSession(db, user, clientOf(req), start),
  );

  app.decorateRequest('actor', null);
  app.decorateRequest('directoryVersion', undefined);
  app.decorateRequest('personalVersion', undefined);
  app.decorateRequest('accountVersion', undefined);

  const expired = () => unauthorized('auth.session_expired');
  // Every signed-in request runs this one query: the account's few columns the guard needs, its session's row (ended
  // or not, when last proven, with which second factor), its confirmed factors' kinds and whether a recovery code is
  // left (the step-up methods, decision 104), and the versions its cached answers are cached under (the
  // directory's, the person's own reads', the person's and their group's rows). Prepared once (named statement): no SQL building or planning per request.
  const sessionUser = app.db
    .select({
      ...actorColumns,
      status: users.status,
      statusReason: users.statusReason,
      sessionsValidAfter: users.sessionsValidAfter,
      sessionId: sessions.id,
      sessionEnded: sql<boolean>`${sessions.endedAt} is not null`,
      sessionMethod: sessions.method,
      sessionVerifiedAt: sessions.verifiedAt,
      sessionSecondFactor: sessions.secondFactor,
      authSource: users.authSource,
      ...opts.secondFactor.facts(sql`"users"."id"`),
      directoryVersion: sql<string>`coalesce((select directory from read_versions), 0)::text`,
      personalVersion: sql<string>`coalesce((select personal from read_versions), 0)::text`,
      accountVersion: sql<string>`"users".xmin::text || ':' || coalesce((select g.xmin::text from groups g where g.id = "users"."group_id"), '')`,
    })
    .from(users)
    .leftJoin(sessions, and(eq(sessions.id, sql.placeholder('sessionId')), eq(sessions.userId, users.id)))
    .where(eq(users.id, sql.placeholder('userId')))
    .limit(1)
    .prepare('session_user');
  app.decorate('authenticate', async (req: FastifyRequest) => {
    if (req.actor) return; // the root hook already did
    const token = presentedToken(req);
    if (!token) throw unauthorized();
    let payload: Partial<TokenPayload>;
    try {
      payload = app.jwt.verify<TokenPayload>(token);
    } catch {
      throw expired();
    }
    // A token without a session id cannot be signed out, so it is not accepted.
    if (!isSession(payload)) throw expired();
    const [row] = await sessionUser.execute({ userId: payload.sub, sessionId: payload.sid });
    if (!row?.sessionId || row.sessionEnded || row.sessionsValidAfter.getTime() !== payload.sv) throw expired();
    const refusal = refusalFor(row);
    if (refusal) throw forbidden(refusal.code, refusal.params, { status: refusal.status });
    const actor = toActor(row, {
      id: row.sessionId,
      method: row.sessionMethod!,
      verifiedAt: row.sessionVerifiedAt!,
      secondFactor: row.sessionSecondFactor,
      stepUp: {
        classifications: opts.stepUp.classifications,
        freshUntil: new Date(row.sessionVerifiedAt!.getTime() + opts.stepUp.minutes * 60_000),
        methods: stepUpMethodsOf({ authSource: row.authSource, kinds: row.factorKinds, recovery: row.recoveryLeft }),
      },
    });
    // The second factor (decision 064): a session that has not passed the one its person must have reaches only the
    // routes that lead to it. In memory from the row just read, the person's factors included.
    if (
      row.sessionSecondFactor === null &&
      !req.routeOptions.config.beforeSecondFactor &&
      opts.secondFactor.required(actor)
    ) {
      throw forbidden(row.factorKinds.length ? 'auth.second_factor_required' : 'auth.second_factor_enrolment_required');
    }
    req.actor = actor;
    req.directoryVersion = row.directoryVersion;
    req.personalVersion = row.personalVersion;
    req.accountVersion = row.accountVersion;
  });

  const publicRoutes = new Set<string>();
  app.decorate('publicRoutes', publicRoutes);
  app.addHook('onRoute', (route) => {
    if (!route.config?.public) return;
    for (const method of [route.method].flat()) publicRoutes.add(`${method} ${route.url}`);
  });
  // Deny by default. Unknown addresses fall through to the 404 handler.
  app.addHook('onRequest', async (req, reply) => {
    if (req.is404) return;
    const { public: isPublic, identifies } = req.routeOptions.config;
    if (!isPublic) return app.authenticate(req, reply);
    if (!identifies || !presentedToken(req, true)) return;
    try {
      await app.authenticate(req, reply);
    } catch {
      req.actor = null; // a visitor
    }
  });
});

/** The signed-in person of a route that is not public (the sign-in hook has refused everyone else). */
export function signedInActor(req: FastifyRequest): Actor {
  if (!req.actor) throw unauthorized();
  return req.actor;
}
