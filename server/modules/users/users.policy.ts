import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { userDocuments } from '#server/db/schema/index.ts';
import { forbidden } from '#server/lib/errors.ts';
import { type Actor, signedInActor } from '#server/plugins/auth.ts';
import type { FileAccessCheck } from '#server/modules/files/files.policy.ts';

/**
 * May this person see and edit this profile? The owner and admins only (issue 3: "a user edits only their own
 * profile; an admin may edit anyone's"); colleagues see the directory card instead (decision 005).
 */
export const canManageProfile = (actor: Actor, userId: string) => actor.id === userId || actor.role === 'admin';

/**
 * onRequest guard, after `authenticate`, for /api/users/:id routes: the owner or an admin. Runs before the body is
 * read or validated, so a stranger gets 403, not a validation message, and no upload is received.
 */
export async function requireProfileOwnerOrAdmin(req: FastifyRequest) {
  const { id } = req.params as { id?: string };
  if (!id || !canManageProfile(signedInActor(req), id))
    throw forbidden('You may only view or change your own profile.');
}

/** Documents on a user's record: the user themself and admins (admins pass before any rule); usersRoutes registers it. */
export const canDownloadUserDocument: FileAccessCheck = async (db, actor, file) => {
  const [doc] = await db
    .select({ userId: userDocuments.userId })
    .from(userDocuments)
    .where(eq(userDocuments.fileId, file.id))
    .limit(1);
  return doc?.userId === actor.id;
};
