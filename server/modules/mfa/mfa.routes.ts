import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import {
  recoveryCodesInput,
  recoveryCodesJson,
  secondFactorsJson,
  secondFactorVerifyInput,
  sessionJson,
  totpConfirmInput,
  totpConfirmJson,
  totpEnrolInput,
  totpEnrolJson,
} from '#shared/schemas/auth.ts';
import { messageJson } from '#shared/schemas/common.ts';

import type { UserRow } from '#server/db/schema/index.ts';
import { conflict, forbidden, unauthorized } from '#server/lib/errors.ts';
import { sendPersonal } from '#server/lib/personal-cache.ts';
import { clientOf } from '#server/lib/request-client.ts';
import { auditingProof } from '#server/modules/audit-trail/sign-in-events.ts';
import { presentUser } from '#server/modules/users/users.presenter.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import { type Actor, presentedToken, signedInActor, signInContext, withTokenCookie } from '#server/plugins/auth.ts';

import { hasConfirmedFactor } from './factors.queries.ts';
import { mfaPolicy } from './mfa.policy.ts';
import {
  beginTotpEnrolment,
  confirmTotpEnrolment,
  factorDeps,
  listSecondFactors,
  passSecondFactorInSession,
  removeSecondFactor,
  renewRecoveryCodes,
  resetSecondFactor,
  verifySecondFactorCode,
} from './mfa.service.ts';
import { finishSecondFactor } from './second-factor-sign-in.ts';
import { type SecondFactorTicket, verifyTicket } from './ticket.ts';

const idParam = z.object({ id: z.uuid() });

/**
 * Who a second-factor request is for: the sign-in ticket in its body (the password step is done, no session yet), or
 * else the signed-in person (the sign-in hook has read their token: `identifies`). Neither: 401.
 */
export async function whoFor(
  req: FastifyRequest,
  ticket: string | undefined,
): Promise<{ ticket: SecondFactorTicket; user: UserRow } | { actor: Actor; user: UserRow }> {
  if (ticket) {
    const { payload, user } = await verifyTicket(req.server.db, req.server.tokens, ticket);
    return { ticket: payload, user };
  }
  // A token that was sent but refused (expired, signed out) is a 401 of its own, not a visitor's.
  if (!req.actor) throw unauthorized(presentedToken(req, true) ? 'auth.session_expired' : 'auth.sign_in_required');
  const found = await findUserById(req.server.db, req.actor.id);
  if (!found) throw unauthorized('auth.session_expired');
  return { actor: req.actor, user: found.user };
}

/**
 * The second factor (decision 064): the sign-in's second step, setting up an authenticator app,
 * recovery codes, My Account's list, and an admin's reset. Every route here is open to a session that has not passed
 * the second factor yet (`beforeSecondFactor`): they are the way to it.
 */
export const mfaRoutes: FastifyPluginAsyncZod = async (app) => {
  // A route reached with a sign-in ticket or a session: public, and identifies the session when there is one. The
  // visitor with neither is refused by whoFor.
  const ticketOrSession = { public: true, identifies: true, beforeSecondFactor: true } as const;

  app.post(
    '/api/auth/second-factor/verify',
    {
      config: ticketOrSession,
      schema: {
        description:
          'The second step of a sign-in that answered `auth.second_factor_required`: the ticket and a code from the ' +
          'authenticator app or a recovery code. Answers the token and the user, as POST /api/auth/login does without ' +
          'a second factor. Without a ticket, a signed-in session that has not passed its second factor passes it.',
        body: secondFactorVerifyInput,
        response: { 200: sessionJson },
      },
    },
    async (req, reply) => {
      const who = await whoFor(req, req.body.ticket);
      if (!(await hasConfirmedFactor(app.db, who.user.id))) throw forbidden('auth.second_factor_enrolment_required');
      // A wrong code at sign-in is the trail's second_factor_failed; in a session that passed one, a step-up's.
      const failed = 'actor' in who && who.actor.session?.secondFactor ? 'step_up_failed' : 'second_factor_failed';
      const kind = await auditingProof(app.db, clientOf(req), who.user, failed, 'code', () =>
        verifySecondFactorCode(factorDeps(app), who.user.id, req.body.code, req.ip),
      );
      if ('ticket' in who) {
        return withTokenCookie(req, reply, await finishSecondFactor(signInContext(req), who.user.id, who.ticket, kind));
      }
      await passSecondFactorInSession(app.db, clientOf(req), who.actor, kind);
      const found = await findUserById(app.db, who.user.id);
      return { token: presentedToken(req, true)!, user: presentUser(who.user, found?.group ?? null) };
    },
  );

  app.post(
    '/api/auth/second-factor/totp/enrol',
    {
      config: ticketOrSession,
      schema: {
        description:
          'Begins setting up an authenticator app: with the ticket of a sign-in that answered ' +
          '`auth.second_factor_enrolment_required`, or signed in (My Account). Answers the secret to type, its ' +
          'otpauth:// address and a QR code (PNG data URL). Confirm with POST /api/auth/second-factor/totp/confirm.',
        body: totpEnrolInput,
        response: { 200: totpEnrolJson },
      },
    },
    async (req) => {
      const who = await whoFor(req, req.body.ticket);
      const hasFactor = await hasConfirmedFactor(app.db, who.user.id);
      // A ticket proves the password only: it may set up the first factor, never add one beside an existing one.
      if ('ticket' in who) {
        if (hasFactor) throw conflict('auth.second_factor_already_set_up');
      } else {
        mfaPolicy.authorize(who.actor, 'mfa.manage_own', { hasFactor });
        mfaPolicy.authorize(who.actor, 'mfa.change_factors');
      }
      return beginTotpEnrolment(factorDeps(app), who.user);
    },
  );

  app.post(
    '/api/auth/second-factor/totp/confirm',
    {
      config: ticketOrSession,
      schema: {
        description:
          'Confirms the authenticator app being set up with a code from it. With a ticket: starts the session and ' +
          'answers the token, the user and the 10 recovery codes (shown once). Signed in: answers the recovery codes ' +
          'when this is the first factor, else nothing.',
        body: totpConfirmInput,
        response: { 200: totpConfirmJson },
      },
    },
    async (req, reply) => {
      const who = await whoFor(req, req.body.ticket);
      const hasFactor = await hasConfirmedFactor(app.db, who.user.id);
      if ('ticket' in who) {
        if (hasFactor) throw conflict('auth.second_factor_already_set_up');
        const deps = factorDeps(app);
        const { recoveryCodes } = await confirmTotpEnrolment(deps, who.user, req.body.code, req.body.label, req.ip);
        const session = await finishSecondFactor(signInContext(req), who.user.id, who.ticket, 'totp');
        return { ...withTokenCookie(req, reply, session), recoveryCodes };
      }
      mfaPolicy.authorize(who.actor, 'mfa.manage_own', { hasFactor });
      mfaPolicy.authorize(who.actor, 'mfa.change_factors');
      const answer = await confirmTotpEnrolment(factorDeps(app), who.user, req.body.code, req.body.label, req.ip);
      if (!who.actor.session?.secondFactor) await passSecondFactorInSession(app.db, clientOf(req), who.actor, 'totp');
      return answer;
    },
  );

  app.post(
    '/api/auth/second-factor/recovery-codes',
    {
      config: { beforeSecondFactor: true },
      schema: {
        description:
          'Ten new recovery codes (the old ones stop working): with a current code from a factor, or without one in a ' +
          'session with a fresh check (decision 094; else 401 `auth.step_up_required`).',
        body: recoveryCodesInput,
        response: { 200: recoveryCodesJson },
      },
    },
    async (req) => {
      const actor = signedInActor(req);
      mfaPolicy.authorize(actor, 'mfa.manage_own', { hasFactor: await hasConfirmedFactor(app.db, actor.id) });
      // A current code is the step-up itself; without one the session must have had one (decision 094).
      if (req.body.code) await verifySecondFactorCode(factorDeps(app), actor.id, req.body.code, req.ip);
      else mfaPolicy.authorize(actor, 'mfa.change_factors');
      return { recoveryCodes: await renewRecoveryCodes(app.db, actor) };
    },
  );

  app.get(
    '/api/auth/second-factor',
    {
      config: { beforeSecondFactor: true },
      schema: {
        description: "The signed-in person's second factors and how many recovery codes they have left.",
        response: { 200: secondFactorsJson },
      },
    },
    // Kept per person (server/lib/personal-cache.ts, decision 089): their factors and codes move the personal version.
    async (req, reply) =>
      sendPersonal(req, reply, async () => ({
        body: secondFactorsJson.parse(await listSecondFactors(app.db, app.config, signedInActor(req))),
      })),
  );

  app.delete(
    '/api/auth/second-factor/:id',
    {
      config: { beforeSecondFactor: true },
      schema: { params: idParam, response: { 200: messageJson } },
    },
    async (req) => {
      const actor = signedInActor(req);
      mfaPolicy.authorize(actor, 'mfa.manage_own', { hasFactor: await hasConfirmedFactor(app.db, actor.id) });
      mfaPolicy.authorize(actor, 'mfa.change_factors');
      await removeSecondFactor(app.db, app.config, actor, req.params.id);
      return { message: 'Second factor removed.' };
    },
  );

  app.post(
    '/api/users/:id/second-factor/reset',
    {
      onRequest: async (req) => {
        const { id } = req.params as { id?: string };
        mfaPolicy.authorize(req.actor, 'mfa.reset_other', { userId: id ?? '' });
      },
      schema: {
        description:
          "An admin resets another person's second factor: their factors and recovery codes go and their sessions " +
          'end; they set up a new one at their next sign-in. Recorded in the activity log.',
        params: idParam,
        response: { 200: messageJson },
      },
    },
    async (req) => {
      await resetSecondFactor(app.db, signedInActor(req), req.params.id);
      return { message: 'Second factor reset. The person sets up a new one at their next sign-in.' };
    },
  );
};
