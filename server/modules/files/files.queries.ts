import { eq, inArray } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { type FileRow, files } from '#server/db/schema/index.ts';

/*
 * Reads of the files' tables that other modules call (decision 103: a module owns its tables).
 */

/** Where a stored file is and what it was called, or undefined. */
export async function storedFileById(
  db: DbOrTx,
  id: string,
): Promise<Pick<FileRow, 'area' | 'storedName' | 'originalName'> | undefined> {
  const [row] = await db
    .select({ area: files.area, storedName: files.storedName, originalName: files.originalName })
    .from(files)
    .where(eq(files.id, id))
    .limit(1);
  return row;
}

/** Stored files by id (the rows of those that exist). */
export async function fileRowsByIds(db: DbOrTx, ids: string[]): Promise<FileRow[]> {
  if (!ids.length) return [];
  return db.select().from(files).where(inArray(files.id, ids));
}
