import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { approveUserInput } from '#shared/schemas/auth.ts';
import type { Db } from '#server/db/client.ts';
import { groups, labs, users, type UserRow } from '#server/db/schema/index.ts';
import { badRequest, conflict, notFound } from '#server/lib/errors.ts';
import type { Actor } from '#server/plugins/auth.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';

/** Users waiting for approval, oldest first. Callers check that the actor is an admin. */
export async function listPendingUsers(db: Db, page: { limit: number; offset: number }): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .where(eq(users.status, 'pending'))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * Approves a pending user into a group of the lab with the role the admin chose (it overrides the requested one,
 * spec §4). Callers check that the actor is an admin.
 */
export async function approveUser(
  db: Db,
  actor: Actor,
  userId: string,
  input: z.output<typeof approveUserInput>,
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).limit(1).for('update');
    if (!user) throw notFound('User not found.');
    if (user.status !== 'pending') throw conflict('This user is not waiting for approval.');
    const [group] = await tx.select().from(groups).where(eq(groups.id, input.groupId)).limit(1);
    if (!group) throw badRequest('The chosen group does not exist.', 'groupId');
    let labId = input.labId ?? group.labId;
    if (input.labId) {
      const [lab] = await tx.select({ id: labs.id }).from(labs).where(eq(labs.id, input.labId)).limit(1);
      if (!lab) throw badRequest('The chosen lab does not exist.', 'labId');
    }
    if (!labId) {
      const [lab] = await tx.select({ id: labs.id }).from(labs).limit(1);
      labId = lab?.id ?? null;
    }
    const [approved] = await tx
      .update(users)
      .set({
        status: 'approved',
        statusReason: null,
        role: input.role,
        groupId: group.id,
        labId,
        approvedAt: new Date(),
        approvedBy: actor.id,
      })
      .where(and(eq(users.id, userId), eq(users.status, 'pending')))
      .returning();
    await recordActivity(tx, actor, `Approved user ${user.email} as ${input.role} in group ${group.name}`, {
      type: 'user',
      id: user.id,
    });
    return approved!;
  });
}
