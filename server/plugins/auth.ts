import fp from 'fastify-plugin';
import jwt from '@fastify/jwt';
import cookie from '@fastify/cookie';
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '#shared/constants.ts';
import { users, type UserRow } from '#server/db/schema/index.ts';
import { forbidden, unauthorized } from '#server/lib/errors.ts';

/** The signed-in person, loaded fresh from the database on every request. */
export interface Actor {
  id: string;
  email: string;
  name: string;
  role: Role;
  groupId: string | null;
  labId: string | null;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; sv: number };
    user: Actor;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest guard: a valid token of an approved, active account. */
    authenticate: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** onRequest guard, after `authenticate`: the actor has one of these roles. */
    requireRole: (...roles: Role[]) => (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Signs a token for this user (used by login). */
    issueToken: (user: UserRow) => string;
  }
}

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

/** Why an account that exists may not sign in or use its token (decision 003). */
export function refusalFor(user: Pick<UserRow, 'status' | 'statusReason'>): { message: string; status: string } | null {
  switch (user.status) {
    case 'approved':
      return null;
    case 'pending':
      return {
        status: 'pending',
        message: 'Your account is awaiting admin approval. Please wait for an administrator to approve it.',
      };
    case 'rejected':
      return {
        status: 'rejected',
        message: `Your registration was not approved.${user.statusReason ? ` Reason: ${user.statusReason}` : ''}`,
      };
    case 'deactivated':
      return { status: 'deactivated', message: 'Your account has been deactivated. Please contact the administrator.' };
  }
}

export const toActor = (u: UserRow): Actor => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role,
  groupId: u.groupId,
  labId: u.labId,
});

/**
 * Bearer-token authentication (spec §4: the token is kept in browser storage), plus an httpOnly SameSite=Strict
 * cookie that is accepted only for GET/HEAD, so a file link opened in a new tab is authorised while no write can be
 * made with the cookie alone (decision 003).
 */
export const authPlugin = fp<{ secret: string; expiresIn: string }>(async (app, opts) => {
  await app.register(cookie);
  await app.register(jwt, { secret: opts.secret, sign: { expiresIn: opts.expiresIn } });

  app.decorate('issueToken', (user: UserRow) => app.jwt.sign({ sub: user.id, sv: user.sessionsValidAfter.getTime() }));

  app.decorate('authenticate', async (req: FastifyRequest) => {
    let token: string | undefined;
    const header = req.headers.authorization;
    if (header?.startsWith('Bearer ')) token = header.slice(7).trim();
    else if (req.method === 'GET' || req.method === 'HEAD') token = req.cookies[TOKEN_COOKIE];
    if (!token) throw unauthorized();
    let payload: { sub: string; sv: number };
    try {
      payload = app.jwt.verify<{ sub: string; sv: number }>(token);
    } catch {
      throw unauthorized('Your session has expired. Please sign in again.');
    }
    const [user] = await app.db.select().from(users).where(eq(users.id, payload.sub)).limit(1);
    if (!user || user.sessionsValidAfter.getTime() !== payload.sv) {
      throw unauthorized('Your session has expired. Please sign in again.');
    }
    const refusal = refusalFor(user);
    if (refusal) throw forbidden(refusal.message, { status: refusal.status });
    req.user = toActor(user);
  });

  app.decorate('requireRole', (...roles: Role[]) => async (req: FastifyRequest) => {
    if (!req.user || !roles.includes(req.user.role)) throw forbidden();
  });
});
