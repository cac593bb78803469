import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { sessionJson, totpConfirmJson } from '#shared/schemas/auth.ts';
import {
  passkeyOptionsInput,
  passkeyOptionsJson,
  passkeyRegisterInput,
  passkeyVerifyInput,
} from '#shared/schemas/passkeys.ts';

import { conflict } from '#server/lib/errors.ts';
import { clientOf } from '#server/lib/request-client.ts';
import { auditingProof } from '#server/modules/audit-trail/sign-in-events.ts';
import { presentUser } from '#server/modules/users/users.presenter.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import { presentedToken, signInContext, withTokenCookie } from '#server/plugins/auth.ts';

import { hasConfirmedFactor } from './factors.queries.ts';
import { mfaPolicy } from './mfa.policy.ts';
import { whoFor } from './mfa.routes.ts';
import { passSecondFactorInSession } from './mfa.service.ts';
import {
  addPasskey,
  type Ceremony,
  passkeyAssertionOptions,
  passkeyRegistrationOptions,
  relyingParty,
  verifyPasskeyAssertion,
} from './passkeys.ts';
import { finishSecondFactor } from './second-factor-sign-in.ts';

/**
 * Passkeys, the stronger second factor (decision 065): adding one (at sign-in with the ticket of a
 * person who must set up a factor, or signed in from My Account → Security) and signing with one (the sign-in's
 * second step with its ticket, or a signed-in session passing its second factor). Removing one is the factors'
 * DELETE /api/auth/second-factor/:id. Every route answers a ticket or a session, as mfa.routes.ts's do.
 */
export const passkeysRoutes: FastifyPluginAsyncZod = async (app) => {
  const ticketOrSession = { public: true, identifies: true, beforeSecondFactor: true } as const;
  /** The ceremony's plain values, from the request (decision 104). */
  const ceremony = (req: FastifyRequest): Ceremony => ({
    db: app.db,
    rp: relyingParty(app.config, req),
    log: req.log,
  });

  /** A ticket proves the password only: it may set up the first factor, never add one beside another. */
  async function mayAddPasskey(who: Awaited<ReturnType<typeof whoFor>>) {
    const hasFactor = await hasConfirmedFactor(app.db, who.user.id);
    if ('ticket' in who) {
      if (hasFactor) throw conflict('auth.second_factor_already_set_up');
    } else {
      mfaPolicy.authorize(who.actor, 'mfa.manage_own', { hasFactor });
      mfaPolicy.authorize(who.actor, 'mfa.change_factors'); // a step-up (decision 094)
    }
  }

  app.post(
    '/api/auth/second-factor/passkey/registration-options',
    {
      config: ticketOrSession,
      schema: {
        description:
          'Begins adding a passkey: with the ticket of a sign-in that answered `auth.second_factor_enrolment_required`, ' +
          'or signed in (My Account). Answers the options for navigator.credentials.create() (@simplewebauthn/browser ' +
          'startRegistration); their challenge lasts 5 minutes and is used once. Finish with ' +
          'POST /api/auth/second-factor/passkey/register.',
        body: passkeyOptionsInput,
        response: { 200: passkeyOptionsJson },
      },
    },
    async (req) => {
      const who = await whoFor(req, req.body.ticket);
      await mayAddPasskey(who);
      // Spread: the library's interface as a plain object (the response schema takes any further fields).
      return { ...(await passkeyRegistrationOptions(ceremony(req), who.user)) };
    },
  );

  app.post(
    '/api/auth/second-factor/passkey/register',
    {
      config: ticketOrSession,
      schema: {
        description:
          'Keeps the passkey the browser made for the registration options, named `label`. With a ticket: starts the ' +
          'session and answers the token, the user and the 10 recovery codes (shown once). Signed in: answers the ' +
          'recovery codes when this is the first factor, else nothing.',
        body: passkeyRegisterInput,
        response: { 200: totpConfirmJson },
      },
    },
    async (req, reply) => {
      const who = await whoFor(req, req.body.ticket);
      await mayAddPasskey(who);
      const { recoveryCodes } = await addPasskey(ceremony(req), who.user, req.body.label, req.body.response);
      const codes = recoveryCodes ? { recoveryCodes } : {};
      if ('ticket' in who) {
        const session = await finishSecondFactor(signInContext(req), who.user.id, who.ticket, 'passkey');
        return { ...withTokenCookie(req, reply, session), ...codes };
      }
      if (!who.actor.session?.secondFactor)
        await passSecondFactorInSession(app.db, clientOf(req), who.actor, 'passkey');
      return codes;
    },
  );

  app.post(
    '/api/auth/second-factor/passkey/authentication-options',
    {
      config: ticketOrSession,
      schema: {
        description:
          'Begins signing with a passkey: with the ticket of a sign-in that answered `auth.second_factor_required`, or ' +
          'signed in. Answers the options for navigator.credentials.get() (@simplewebauthn/browser ' +
          "startAuthentication) with the person's passkeys; the challenge lasts 5 minutes and is used once.",
        body: passkeyOptionsInput,
        response: { 200: passkeyOptionsJson },
      },
    },
    async (req) => {
      const who = await whoFor(req, req.body.ticket);
      return { ...(await passkeyAssertionOptions(ceremony(req), who.user.id)) };
    },
  );

  app.post(
    '/api/auth/second-factor/passkey/verify',
    {
      config: ticketOrSession,
      schema: {
        description:
          'The second step of a sign-in with a passkey: the ticket and the signed answer to the authentication ' +
          'options. Answers the token and the user, as POST /api/auth/login does without a second factor. Without a ' +
          'ticket, a signed-in session that has not passed its second factor passes it.',
        body: passkeyVerifyInput,
        response: { 200: sessionJson },
      },
    },
    async (req, reply) => {
      const who = await whoFor(req, req.body.ticket);
      // A passkey that does not verify: at sign-in the trail's second_factor_failed, later a step-up's.
      const failed = 'actor' in who && who.actor.session?.secondFactor ? 'step_up_failed' : 'second_factor_failed';
      await auditingProof(app.db, clientOf(req), who.user, failed, 'passkey', () =>
        verifyPasskeyAssertion(ceremony(req), who.user.id, req.body.response),
      );
      if ('ticket' in who) {
        const session = await finishSecondFactor(signInContext(req), who.user.id, who.ticket, 'passkey');
        return withTokenCookie(req, reply, session);
      }
      await passSecondFactorInSession(app.db, clientOf(req), who.actor, 'passkey');
      const found = await findUserById(app.db, who.user.id);
      return { token: presentedToken(req, true)!, user: presentUser(who.user, found?.group ?? null) };
    },
  );
};
