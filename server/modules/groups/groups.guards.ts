import type { FastifyRequest } from 'fastify';

import type { Db } from '#server/db/client.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { assertCanManageGroup, findGroupOr404 } from './groups.queries.ts';

/**
 * onRequest guard, after `authenticate`: the actor may manage the group named by the route's `param` (admins and the
 * group's current associate director). It runs before the body is read, so nothing a stranger uploads is stored.
 */
export const requireGroupManager =
  (app: { db: Db }, param: 'id' | 'groupId') =>
  async (req: FastifyRequest): Promise<void> => {
    const id = (req.params as Record<string, string | undefined>)[param] ?? '';
    const group = await findGroupOr404(app.db, id);
    await assertCanManageGroup(app.db, signedInActor(req), group.id);
  };
