import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { messageJson } from '#shared/schemas/common.ts';
import { ssoLinkRequestJson, ssoLinkRequestParam } from '#shared/schemas/sso-link.ts';
import { adminUserIdParam } from '#shared/schemas/user.ts';

import { auditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { authPolicy } from './auth.policy.ts';
import { approveSsoLink, dismissSsoLink, listSsoLinkRequests, removeSsoLink } from './sso-links.service.ts';

/**
 * Single sign-on links an administrator makes and removes (decision 090), beside the approval of registrations
 * (/admin/pending-users): the first sign-ins waiting to be linked to an account, their approval and dismissal, and the
 * removal of an account's link. Admins only; each write in the activity log, a link's change in the audit trail.
 * Made fresh at each read (an admin's read of others, decision 089).
 */
export const ssoLinksRoutes: FastifyPluginAsyncZod = async (app) => {
  const adminOnly = [authPolicy.guard('auth.link_sso')];

  app.get(
    '/admin/sso-link-requests',
    { onRequest: adminOnly, schema: { response: { 200: z.array(ssoLinkRequestJson) } } },
    async () =>
      (await listSsoLinkRequests(app.db)).map((r) => ({
        _id: r.id,
        issuer: r.issuer,
        provider: { email: r.email, name: r.name },
        account: {
          _id: r.account.id,
          name: r.account.name,
          email: r.account.email,
          role: r.account.role,
          status: r.account.status,
        },
        requestedAt: r.requestedAt.toISOString(),
      })),
  );

  app.post(
    '/admin/sso-link-requests/:requestId/approve',
    { onRequest: adminOnly, schema: { params: ssoLinkRequestParam, response: { 200: messageJson } } },
    async (req) => {
      await approveSsoLink(app.db, signedInActor(req), req.params.requestId, auditWho(req));
      return { message: 'Single sign-on linked.' };
    },
  );

  app.post(
    '/admin/sso-link-requests/:requestId/dismiss',
    { onRequest: adminOnly, schema: { params: ssoLinkRequestParam, response: { 200: messageJson } } },
    async (req) => {
      await dismissSsoLink(app.db, signedInActor(req), req.params.requestId);
      return { message: 'Link request dismissed.' };
    },
  );

  app.delete(
    '/admin/users/:userId/sso-link',
    { onRequest: adminOnly, schema: { params: adminUserIdParam, response: { 200: messageJson } } },
    async (req) => {
      await removeSsoLink(app.db, signedInActor(req), req.params.userId, auditWho(req));
      return { message: 'Single sign-on link removed.' };
    },
  );
};
