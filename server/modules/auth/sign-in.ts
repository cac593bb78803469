import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { SessionMethod, UserRow } from '#server/db/schema/index.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { presentUser } from '#server/modules/users/users.presenter.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import { type SessionStart, setTokenCookie } from '#server/plugins/auth.ts';

/**
 * The end of every way in (the portal's password, the lab's directory, single sign-on): the person has proven the
 * first factor and their account may sign in. Starts the session with its activity row in one transaction, sets the
 * download cookie, and answers what `POST /api/auth/login` answers: the token and the user (spec §7).
 */
export async function completeSignIn(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  method: SessionMethod,
  start: Omit<SessionStart, 'method'> = {},
) {
  const token = await app.db.transaction(async (tx) => {
    await recordActivity(tx, user, 'activity.signed_in');
    return app.startSession(tx, user, req, { method, ...start });
  });
  const found = await findUserById(app.db, user.id);
  setTokenCookie(req, reply, token);
  return { token, user: presentUser(user, found?.group ?? null) };
}
