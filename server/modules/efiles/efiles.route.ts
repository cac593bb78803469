import { inArray } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { type EfileRow, users } from '#server/db/schema/index.ts';
import { badRequest } from '#server/lib/errors.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { efilesPolicy } from './efiles.policy.ts';

/** The officers of an intended route, or of a sending: each must exist and be someone the file may be sent to. */
export async function assertRoute(
  db: DbOrTx,
  actor: Actor,
  ids: readonly string[],
  classification: string,
  self: readonly string[] = [],
): Promise<void> {
  if (!ids.length) return;
  const people = await db
    .select()
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  if (people.length !== new Set(ids).size) throw badRequest('letters.officer_not_found', 'route');
  for (const person of people) {
    // The route may name the actor later on (a file that comes back); only a sending may not.
    if (person.id === actor.id && !self.length) continue;
    efilesPolicy.authorize(actor, 'efiles.send_to', {
      person,
      file: {
        classification: classification as EfileRow['classification'],
        createdBy: '',
        state: 'open',
        holderId: '',
      },
      self,
    });
  }
}
