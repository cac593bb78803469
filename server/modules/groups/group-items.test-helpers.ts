import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { files } from '#server/db/schema/index.ts';
import { multipart, type MultipartFile, SAMPLE_FILES } from '#server/test/multipart.ts';

import type { GroupCast, Person } from './groups.fixtures.ts';

// The helpers of the group items tests, split by list: group-items.notices (a group's notices and circulars, the
// Archive) and group-items.files (its five file lists) (.test.ts). Each test file builds its own app and database
// (groups.fixtures.ts).

export const pdf = (filename = 'plan.pdf'): MultipartFile => ({ field: 'file', filename, content: SAMPLE_FILES.pdf });

export async function send(
  c: GroupCast,
  who: Person,
  method: 'POST' | 'PUT',
  url: string,
  fields: Record<string, string>,
  file?: MultipartFile,
) {
  const body = file ? multipart(fields, file) : multipart(fields);
  return c.app.inject({ method, url, payload: body.payload, headers: { ...body.headers, ...(await c.as(who)) } });
}

/** Stored files of the group-files area, as rows: a failed request must leave none behind. */
export const fileRows = (c: GroupCast) => c.app.db.select().from(files).where(eq(files.area, 'group-files'));
/** Rows and bytes on disk of the group-files area. */
export const fileCount = async (c: GroupCast) => {
  const dir = path.dirname(c.app.storage.storedPath('group-files', 'x'));
  return { rows: (await fileRows(c)).length, onDisk: existsSync(dir) ? readdirSync(dir).length : 0 };
};
