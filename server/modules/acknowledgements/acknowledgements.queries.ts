import { eq, inArray } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { acknowledgementRequests, acknowledgements } from '#server/db/schema/index.ts';

import { documentColumns, withDocument } from './acknowledgements.documents.ts';

/*
 * Reads of the acknowledgements' tables that other modules call (decision 103: a module owns its tables).
 */

/** Each of these acknowledgements (a person's row) with its due date and the name of its notice or circular. */
export async function acknowledgementsByIds(
  db: DbOrTx,
  ids: string[],
): Promise<{ id: string; dueOn: string; name: string }[]> {
  if (!ids.length) return [];
  return withDocument(
    db
      .select({ id: acknowledgements.id, dueOn: acknowledgements.dueOn, name: documentColumns.name })
      .from(acknowledgements)
      .innerJoin(acknowledgementRequests, eq(acknowledgementRequests.id, acknowledgements.requestId)),
  ).where(inArray(acknowledgements.id, ids));
}
