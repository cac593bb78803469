import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import {
  activeSessionJson,
  forgotPasswordInput,
  loginInput,
  loginJson,
  logoutJson,
  passwordResetInput,
  registerInput,
  sessionJson,
  stepUpInput,
  stepUpJson,
} from '#shared/schemas/auth.ts';
import { messageJson, uuidParam } from '#shared/schemas/common.ts';
import { expiredPasswordInput, userJson } from '#shared/schemas/user.ts';

import { answerCache } from '#server/lib/answer-cache.ts';
import { DEVICE_COOKIE, setDeviceCookie } from '#server/lib/device-cookie.ts';
import { conflict, notFound } from '#server/lib/errors.ts';
import { prepareJson, sendPrepared } from '#server/lib/prepared-answer.ts';
import { clientOf } from '#server/lib/request-client.ts';
import { auditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { auditSignInFailed } from '#server/modules/audit-trail/sign-in-events.ts';
import { factorDeps } from '#server/modules/mfa/mfa.service.ts';
import { presentUser } from '#server/modules/users/users.presenter.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import {
  presentedToken,
  setTokenCookie,
  signedInActor,
  signInContext,
  TOKEN_COOKIE,
  withTokenCookie,
} from '#server/plugins/auth.ts';

import {
  endAllSessions,
  findSignInSubject,
  refreshSession,
  registerUser,
  revokeSession,
  signInWithPassword,
} from './auth.service.ts';
import { checkDirectoryStanding } from './directory-accounts.ts';
import { changeExpiredPassword, expiredPasswordStep } from './password-expiry.ts';
import { requestPasswordReset, RESET_ANSWER_MS, resetPasswordWithLink } from './password-reset.ts';
import { completeSignIn } from './sign-in.ts';
import { confirmIdentity, endOwnSession, listLiveSessions } from './step-up.ts';

/** "Stay signed in" is pressed once per sign-in period; more than this a minute from one address is not a person. */
export const REFRESHES_PER_MINUTE = 10;

/** "Who am I" answers, one per person (a few KB each), at most this many people. */
const accountAnswers = answerCache('account', { entries: 5000, bytes: 16 * 1024 * 1024 });

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/auth/register',
    {
      config: { public: true },
      schema: { body: registerInput, response: { 201: z.object({ message: z.string(), user: userJson }) } },
    },
    async (req, reply) => {
      await app.throttle.registration(req.ip);
      const user = await registerUser(app.db, req.body);
      return reply.code(201).send({
        message: 'User saved successfully! Your account is awaiting admin approval.',
        user: presentUser(user),
      });
    },
  );

  app.post(
    '/api/auth/login',
    {
      config: { public: true },
      schema: { body: loginInput, response: { 200: loginJson } },
    },
    async (req, reply) => {
      const { email, password } = req.body;
      // Every refused attempt is in the audit trail with the login tried (never the password): audit-trail/sign-in-events.ts.
      // Failures are throttled per account and per address, a success is never counted (decision 014), and a browser
      // that signed in before as this person carries a device cookie that keeps it out of the account's lock (041).
      // With the lab's directory configured, a login that is not a local account is the directory's (decision 062);
      // its entry is looked up first, and its wrong passwords count against the entry, whichever form of its uid or
      // mail was typed (decision 094).
      const { user, method, key } = await (async () => {
        const subject = await findSignInSubject(app.db, app.config.ldap, email);
        const signedIn = await app.throttle.passwordCheck(
          { account: subject.key, address: req.ip, deviceCookie: req.cookies[DEVICE_COOKIE] },
          () => signInWithPassword(app.db, app.config.ldap, subject, password, auditWho(req, null)),
          (err) => (err as { statusCode?: number }).statusCode === 401,
        );
        return { ...signedIn, key: subject.key };
      })().catch(async (err: unknown) => {
        await auditSignInFailed(app.db, clientOf(req), email, err);
        throw err;
      });
      setDeviceCookie(req, reply, app.throttle.deviceCookieFor(key));
      // A portal password older than PASSWORD_MAX_AGE_DAYS is changed before the sign-in goes on (decision 117).
      const expired = method === 'password' ? expiredPasswordStep(signInContext(req), user) : null;
      if (expired) return expired;
      return withTokenCookie(req, reply, await completeSignIn(signInContext(req), user, method));
    },
  );

  // The change of an expired password with the sign-in's ticket (decision 117); answers as a sign-in does.
  app.post(
    '/api/auth/expired-password',
    { config: { public: true }, schema: { body: expiredPasswordInput, response: { 200: loginJson } } },
    async (req, reply) =>
      withTokenCookie(
        req,
        reply,
        await changeExpiredPassword(signInContext(req), req.body.ticket, req.body.newPassword),
      ),
  );

  // Forgot password (decision 077): one answer for every email, given no sooner than RESET_ANSWER_MS
  // after the request arrived, so that neither the words nor the time tell whether the email is an account's. Requests
  // are throttled per typed email and per address. A directory or single sign-on account is told where its password
  // lives. Without SMTP_URL there is no mail to send the link by.
  app.post(
    '/api/auth/forgot-password',
    { config: { public: true }, schema: { body: forgotPasswordInput, response: { 200: messageJson } } },
    async (req) => {
      if (!app.config.mail) throw conflict('auth.reset_off');
      await app.throttle.passwordReset(req.ip, req.body.email);
      const started = Date.now();
      try {
        await requestPasswordReset(app.db, app.config, req.body.email, auditWho(req, null));
      } finally {
        const left = RESET_ANSWER_MS - (Date.now() - started);
        if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      }
      return {
        message:
          'If this email belongs to an account of the portal, a link to reset its password has been sent to it. The link works for 30 minutes.',
      };
    },
  );

  // The mailed link's page sends its token with the new password: every session of the account ends, and the person
  // signs in again with the new password. Uses of links count against the address's allowance too.
  app.post(
    '/api/auth/reset-password',
    { config: { public: true }, schema: { body: passwordResetInput, response: { 200: messageJson } } },
    async (req) => {
      await app.throttle.passwordReset(req.ip);
      const user = await resetPasswordWithLink(
        app.db,
        app.config.passwords,
        req.body.token,
        req.body.password,
        auditWho(req, null),
      );
      await app.throttle.clearAccount(user.email);
      return { message: 'Your password has been changed. Please sign in with your new password.' };
    },
  );

  // Public, so that signing out always works; the session it presents (header or cookie) ends on the server. A single
  // sign-on session also answers the provider's end-session address (RP-initiated logout, decision 063), where the web
  // app goes next so that the provider's session ends too.
  app.post(
    '/api/auth/logout',
    { config: { public: true, beforeSecondFactor: true }, schema: { response: { 200: logoutJson } } },
    async (req, reply) => {
      const token = presentedToken(req, true);
      const { ssoIdToken } = token
        ? await revokeSession(app.db, app.tokens, clientOf(req), token)
        : { ssoIdToken: null };
      reply.clearCookie(TOKEN_COOKIE, { path: '/' });
      const logoutUrl =
        ssoIdToken && app.sso ? await app.sso.endSessionUrl(ssoIdToken, `${app.config.portalUrl}/login`) : undefined;
      return logoutUrl ? { message: 'Signed out.', logoutUrl } : { message: 'Signed out.' };
    },
  );

  // Sign out of all devices (profile): every token of the account stops, this one included.
  app.post('/api/auth/logout-all', { schema: { response: { 200: messageJson } } }, async (req, reply) => {
    await endAllSessions(app.db, signedInActor(req), auditWho(req));
    reply.clearCookie(TOKEN_COOKIE, { path: '/' });
    return { message: 'Signed out of all devices.' };
  });

  // The step-up before classified letters (decision 066): the password, or a code of the person's
  // second factor. Wrong answers are throttled as sign-in failures of the account (decision 014), the person's own
  // browser keeping its device cookie's allowance (decision 041). A write: the bearer header only.
  app.post('/api/auth/step-up', { schema: { body: stepUpInput, response: { 200: stepUpJson } } }, async (req) => {
    const actor = signedInActor(req);
    const deps = { ...factorDeps(app), throttle: app.throttle, ldap: app.config.ldap };
    const verifiedAt = await confirmIdentity(deps, clientOf(req), actor, req.body, {
      address: req.ip,
      deviceCookie: req.cookies[DEVICE_COOKIE],
    });
    return { message: 'Confirmed.', verifiedAt: verifiedAt.toISOString() };
  });

  // My Account → Security: the person's live sessions, this one marked.
  app.get('/api/auth/sessions', { schema: { response: { 200: z.array(activeSessionJson) } } }, async (req) => {
    const actor = signedInActor(req);
    return (await listLiveSessions(app.db, actor)).map((s) => ({
      _id: s.id,
      current: s.id === actor.session?.id,
      method: s.method,
      secondFactor: s.secondFactor,
      userAgent: s.userAgent,
      address: s.address,
      createdAt: s.createdAt.toISOString(),
      verifiedAt: s.verifiedAt.toISOString(),
    }));
  });

  // "Sign out" of one of the person's own sessions; ending this one signs this browser out too.
  app.delete(
    '/api/auth/sessions/:id',
    { schema: { params: uuidParam, response: { 200: messageJson } } },
    async (req, reply) => {
      const { current } = await endOwnSession(app.db, signedInActor(req), req.params.id, auditWho(req));
      if (current) reply.clearCookie(TOKEN_COOKIE, { path: '/' });
      return { message: 'Signed out of that session.' };
    },
  );

  // "Stay signed in" of the session-timeout warning (decision 019): a fresh token for a session that
  // is still valid (unexpired, not revoked by a password change, account still approved), and a fresh download cookie.
  // The old token's session ends in the same transaction, so a copy of it cannot outlive the refresh.
  app.post(
    '/api/auth/refresh',
    {
      config: { rateLimit: { max: REFRESHES_PER_MINUTE, timeWindow: '1 minute' } },
      schema: { response: { 200: sessionJson } },
    },
    async (req, reply) => {
      const found = await findUserById(app.db, signedInActor(req).id);
      if (!found) throw notFound('users.not_found');
      // An account of the lab's directory stays signed in only while the directory lets it in (decision 094).
      await checkDirectoryStanding(app.db, app.config.ldap, found.user);
      // A write: the bearer header only (the root hook refuses the cookie alone), already verified.
      const token = await refreshSession(app.db, app.tokens, clientOf(req), presentedToken(req)!, found.user);
      setTokenCookie(req, reply, token);
      return { token, user: presentUser(found.user, found.group) };
    },
  );

  // Asked on every page a signed-in person opens; what it shows (their row and their group's name) changes rarely.
  // Kept per person under the versions of those two rows, which the session check has just read: a change is seen by
  // the very next request on every node (decision 054).
  app.get(
    '/api/auth/me',
    { config: { beforeSecondFactor: true }, schema: { response: { 200: userJson } } },
    async (req, reply) => {
      const answer = await accountAnswers(app.db, signedInActor(req).id, req.accountVersion!, async () => {
        const found = await findUserById(app.db, signedInActor(req).id);
        if (!found) throw notFound('users.not_found');
        return prepareJson(userJson.parse(presentUser(found.user, found.group)));
      });
      return sendPrepared(req, reply, answer, 'private, no-cache');
    },
  );
};
