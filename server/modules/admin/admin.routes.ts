import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { msg } from '#shared/messages/index.ts';
import { approveUserInput } from '#shared/schemas/auth.ts';
import { pageQuery } from '#shared/schemas/common.ts';
import {
  adminUserIdParam,
  classifiedClearanceInput,
  deactivateUserInput,
  managedUserJson,
  manageUsersQuery,
  pageJson,
  rejectUserInput,
  resetPasswordInput,
  updateUserAccessInput,
  userDocumentJson,
  userJson,
} from '#shared/schemas/user.ts';

import { badRequest, notFound } from '#server/lib/errors.ts';
import { sendPage } from '#server/lib/paging.ts';
import { auditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { withReceivedUpload } from '#server/modules/files/upload-receive.ts';
import { presentProfile, presentUser, presentUserDocument } from '#server/modules/users/users.presenter.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import { listUserDocuments, searchUsers } from '#server/modules/users/users.service.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { adminPolicy } from './admin.policy.ts';
import {
  addUserDocument,
  approveUser,
  countPendingUsers,
  deactivateUser,
  listPendingUsers,
  reactivateUser,
  rejectUser,
  removeUserDocument,
  resetUserPassword,
  setClassifiedClearance,
  updateUserAccess,
} from './admin.service.ts';

const userAnswer = z.object({ message: z.string(), user: managedUserJson });

/** Admin-only account approval and Manage Users (spec §7 Admin; decision 005). */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const adminOnly = [adminPolicy.guard('people.administer')];

  app.get(
    '/admin/pending-users',
    {
      onRequest: adminOnly,
      config: { paged: true },
      schema: { querystring: pageQuery, response: { 200: z.array(userJson) } },
    },
    async (req, reply) => {
      const rows = await listPendingUsers(app.db, req.query);
      await sendPage(req, reply, req.query, rows.length, () => countPendingUsers(app.db));
      return rows.map((u) => presentUser(u));
    },
  );

  app.post(
    '/admin/approve-user/:userId',
    {
      onRequest: adminOnly,
      schema: {
        params: adminUserIdParam,
        body: approveUserInput,
        response: { 200: z.object({ message: z.string(), user: userJson }) },
      },
    },
    async (req) => {
      const user = await approveUser(
        app.db,
        signedInActor(req),
        req.params.userId,
        req.body,
        auditWho(req),
        app.config.mail,
      );
      return { message: 'User approved successfully!', user: presentUser(user) };
    },
  );

  /** The whole profile with documents, for the answer of a Manage Users action. */
  const managedUser = async (userId: string) => {
    const found = await findUserById(app.db, userId);
    if (!found) throw notFound('users.not_found');
    return {
      ...presentProfile(found, (await listUserDocuments(app.db, [userId])).get(userId) ?? []),
      classifiedClearance: found.user.classifiedClearance,
      ssoIssuer: found.user.ssoIssuer,
    };
  };

  app.post(
    '/admin/reject-user/:userId',
    {
      onRequest: adminOnly,
      schema: { params: adminUserIdParam, body: rejectUserInput, response: { 200: userAnswer } },
    },
    async (req) => {
      await rejectUser(app.db, signedInActor(req), req.params.userId, req.body.reason, auditWho(req), app.config.mail);
      return { message: 'User rejected.', user: await managedUser(req.params.userId) };
    },
  );

  // Manage Users (lab admin panel): every account, searched and paged on the server.
  app.get(
    '/admin/users',
    { onRequest: adminOnly, schema: { querystring: manageUsersQuery, response: { 200: pageJson(managedUserJson) } } },
    async (req) => {
      const { limit, offset, ...filter } = req.query;
      const { rows, total } = await searchUsers(app.db, filter, { limit, offset });
      const documents = await listUserDocuments(
        app.db,
        rows.map((r) => r.user.id),
      );
      return {
        items: rows.map((r) => ({
          ...presentProfile(r, documents.get(r.user.id) ?? []),
          classifiedClearance: r.user.classifiedClearance,
          ssoIssuer: r.user.ssoIssuer,
        })),
        total,
      };
    },
  );

  app.put(
    '/admin/users/:userId/access',
    {
      onRequest: adminOnly,
      schema: { params: adminUserIdParam, body: updateUserAccessInput, response: { 200: userAnswer } },
    },
    async (req) => {
      await updateUserAccess(app.db, signedInActor(req), req.params.userId, req.body, auditWho(req));
      return { message: 'User updated successfully!', user: await managedUser(req.params.userId) };
    },
  );

  // Cleared for Confidential and Secret letters (decision 020): only then may such a letter be marked to the user.
  app.put(
    '/admin/users/:userId/clearance',
    {
      onRequest: adminOnly,
      schema: { params: adminUserIdParam, body: classifiedClearanceInput, response: { 200: userAnswer } },
    },
    async (req) => {
      const user = await setClassifiedClearance(
        app.db,
        signedInActor(req),
        req.params.userId,
        req.body.cleared,
        auditWho(req),
      );
      return {
        message: user.classifiedClearance
          ? 'User cleared for Confidential and Secret letters.'
          : 'Clearance for Confidential and Secret letters withdrawn.',
        user: await managedUser(req.params.userId),
      };
    },
  );

  app.post(
    '/admin/users/:userId/deactivate',
    {
      onRequest: adminOnly,
      schema: { params: adminUserIdParam, body: deactivateUserInput, response: { 200: userAnswer } },
    },
    async (req) => {
      await deactivateUser(app.db, signedInActor(req), req.params.userId, req.body.reason, auditWho(req));
      return { message: 'User deactivated.', user: await managedUser(req.params.userId) };
    },
  );

  app.post(
    '/admin/users/:userId/reactivate',
    { onRequest: adminOnly, schema: { params: adminUserIdParam, response: { 200: userAnswer } } },
    async (req) => {
      await reactivateUser(app.db, signedInActor(req), req.params.userId, auditWho(req));
      return { message: 'User reactivated.', user: await managedUser(req.params.userId) };
    },
  );

  app.post(
    '/admin/users/:userId/reset-password',
    {
      onRequest: adminOnly,
      schema: { params: adminUserIdParam, body: resetPasswordInput, response: { 200: userAnswer } },
    },
    async (req) => {
      await resetUserPassword(
        app.db,
        app.config.passwords,
        signedInActor(req),
        req.params.userId,
        req.body.newPassword,
      );
      return {
        message: 'Password reset. The user must sign in again with the new password.',
        user: await managedUser(req.params.userId),
      };
    },
  );

  app.post(
    '/admin/users/:userId/documents',
    { onRequest: adminOnly, schema: { params: adminUserIdParam, response: { 201: userDocumentJson } } },
    async (req, reply) => {
      if (!(await findUserById(app.db, req.params.userId))) throw notFound('users.not_found');
      const options = {
        area: 'user-documents',
        kind: 'document',
        fileField: 'document',
        maxBytes: app.config.uploadMaxBytes,
      } as const;
      return withReceivedUpload(req, options, async ({ file }) => {
        if (!file) throw badRequest('admin.document_required', 'document');
        const doc = await addUserDocument(app.db, signedInActor(req), req.params.userId, file);
        return reply.code(201).send(presentUserDocument(doc));
      });
    },
  );

  app.delete(
    '/admin/users/:userId/documents/:documentId',
    {
      onRequest: adminOnly,
      schema: {
        params: adminUserIdParam.extend({ documentId: z.uuid(msg('admin.document_not_found')) }),
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (req) => {
      await removeUserDocument(app.db, app.storage, signedInActor(req), req.params.userId, req.params.documentId);
      return { message: 'Document removed.' };
    },
  );
};
