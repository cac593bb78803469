import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import type { MessageCode } from '#shared/messages/index.ts';
import { authOptionsJson, loginJson, ssoExchangeInput } from '#shared/schemas/auth.ts';

import { AppError, badRequest, forbidden } from '#server/lib/errors.ts';
import { clientOf } from '#server/lib/request-client.ts';
import { auditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { auditSsoRefused } from '#server/modules/audit-trail/sign-in-events.ts';
import { findUserByEmail, findUserById } from '#server/modules/users/users.queries.ts';
import { refusalFor, signInContext, withTokenCookie } from '#server/plugins/auth.ts';

import { checkDirectoryStanding } from './directory-accounts.ts';
import { completeSignIn } from './sign-in.ts';
import { SSO_COOKIE, SSO_FLOW_SECONDS } from './sso.client.ts';
import { accountForSso, createExchangeCode, redeemExchangeCode } from './sso.service.ts';

const COOKIE_PATH = '/api/auth/sso';

/**
 * Single sign-on over OpenID Connect (decision 063): authorization code with PKCE, state and nonce.
 * `/sso/start` sends the person to the provider; `/sso/callback` verifies the answer, finds or makes the account, and
 * sends the person to `/login?sso=<one-time code>` (or `/login?sso_error=<message code>`); the web app exchanges the
 * code for the session at `/sso/exchange`, which answers what `POST /api/auth/login` answers.
 */
export const ssoRoutes: FastifyPluginAsyncZod = async (app) => {
  const secure = app.config.portalUrl?.startsWith('https:') ?? false;
  const toLogin = (reply: FastifyReply, query: Record<string, string>) =>
    reply.header('cache-control', 'no-store').redirect(`/login?${new URLSearchParams(query)}`);
  const refused = (reply: FastifyReply, code: MessageCode) => toLogin(reply, { sso_error: code });

  // The login page asks once per load (single sign-on's button; "Forgot password?" only where the portal sends mail,
  // decision 077); it changes only with the configuration, so caches may keep it five minutes.
  app.get(
    '/api/auth/options',
    { config: { public: true }, schema: { response: { 200: authOptionsJson } } },
    async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { sso: app.sso ? { label: app.sso.settings.label } : null, email: app.config.mail !== null };
    },
  );

  app.get('/api/auth/sso/start', { config: { public: true } }, async (_req, reply) => {
    if (!app.sso) return refused(reply, 'auth.sso_not_configured');
    let started: { url: string; cookie: string };
    try {
      started = await app.sso.start();
    } catch {
      return refused(reply, 'auth.sso_unavailable');
    }
    // Lax, not Strict: the provider's redirect back is a cross-site navigation, which must carry it.
    reply.setCookie(SSO_COOKIE, started.cookie, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: SSO_FLOW_SECONDS,
    });
    return reply.header('cache-control', 'no-store').redirect(started.url);
  });

  app.get('/api/auth/sso/callback', { config: { public: true } }, async (req, reply) => {
    if (!app.sso) return refused(reply, 'auth.sso_not_configured');
    // One flow, one callback: the cookie goes whatever the outcome.
    const flow = app.sso.readFlow(req.cookies[SSO_COOKIE]);
    reply.clearCookie(SSO_COOKIE, { path: COOKIE_PATH });
    const query = new URL(req.url, 'http://portal').search;
    const params = new URLSearchParams(query);
    if (!flow || params.get('state') !== flow.state) return refused(reply, 'auth.sso_state_mismatch');
    if (params.has('error')) {
      req.log.info({ error: params.get('error') }, 'single sign-on: the provider refused');
      return refused(reply, 'auth.sso_provider_error');
    }
    let finished: Awaited<ReturnType<typeof app.sso.finish>>;
    try {
      finished = await app.sso.finish(query, flow);
    } catch (err) {
      // A replayed or foreign code, another issuer's answer, a bad ID token (signature, audience, nonce): refused.
      req.log.warn({ err }, 'single sign-on: the provider answer was refused');
      return refused(reply, 'auth.sso_failed');
    }
    // The address the provider vouched for: a refusal names it in the audit trail (audit-trail/sign-in-events.ts).
    const email = typeof finished.claims.email === 'string' ? finished.claims.email.trim().toLowerCase() : null;
    try {
      const user = await accountForSso(app.db, app.sso.settings, finished.claims, auditWho(req, null));
      const refusal = refusalFor(user);
      if (refusal) {
        await auditSsoRefused(app.db, clientOf(req), user, email, refusal.code);
        // A reason given at rejection is shown by the exchange and the password sign-in; the address carries the code.
        return refused(reply, refusal.code === 'auth.account_rejected_reason' ? 'auth.account_rejected' : refusal.code);
      }
      // An account linked to a directory entry: the directory first (decision 094), as its password sign-in would.
      await checkDirectoryStanding(app.db, app.config.ldap, user);
      const code = await createExchangeCode(app.db, user.id, finished.idToken);
      return toLogin(reply, { sso: code });
    } catch (err) {
      if (err instanceof AppError && err.code !== 'audit.unavailable') {
        const account = email ? ((await findUserByEmail(app.db, email)) ?? null) : null;
        await auditSsoRefused(app.db, clientOf(req), account, email, err.code);
        return refused(reply, err.code);
      }
      throw err;
    }
  });

  app.post(
    '/api/auth/sso/exchange',
    { config: { public: true }, schema: { body: ssoExchangeInput, response: { 200: loginJson } } },
    async (req, reply) => {
      const { userId, idToken } = await redeemExchangeCode(app.db, req.body.code);
      const found = await findUserById(app.db, userId);
      if (!found) throw badRequest('auth.sso_code_invalid');
      const refusal = refusalFor(found.user);
      if (refusal) {
        await auditSsoRefused(app.db, clientOf(req), found.user, found.user.email, refusal.code);
        throw forbidden(refusal.code, refusal.params, { status: refusal.status });
      }
      return withTokenCookie(
        req,
        reply,
        await completeSignIn(signInContext(req), found.user, 'sso', { ssoIdToken: idToken }),
      );
    },
  );
};
