import { asc } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.ts';
import { groups } from '#server/db/schema/index.ts';

/** All groups by name, for the Groups dropdown and group selects. Any signed-in user may call it. */
export async function listGroups(db: DbOrTx) {
  return db
    .select({ id: groups.id, name: groups.name, description: groups.description })
    .from(groups)
    .orderBy(asc(groups.name));
}
