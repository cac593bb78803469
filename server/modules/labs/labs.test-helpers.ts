import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll } from 'vitest';

import { files } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';
import { multipart } from '#server/test/multipart.ts';

// The app, an admin and the helpers of the lab tests, split by subject: labs.record (the lab itself), labs.items (its
// notices, circulars, products and advertisements) and labs.directors (.test.ts). Each test file that imports this
// module gets its own app and database, set before its first test (beforeAll): read them inside tests and hooks.

export let app: FastifyInstance;
export let admin: Record<string, string>;

beforeAll(async () => {
  app = await buildTestApp();
  admin = await authHeaders(app, await createUser(app, 'admin'));
});

export const areaFiles = (area: string) => {
  const dir = path.join(app.config.dataDir, 'uploads', area);
  return existsSync(dir) ? readdirSync(dir).length : 0;
};
export const fileRows = async (area: string) => (await app.db.select().from(files).where(eq(files.area, area))).length;

/** A multipart request (fields and an optional file) as `headers`. */
export async function send(
  method: 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  fields: Record<string, string | undefined>,
  file?: { field?: string; filename: string; content: Buffer },
) {
  const body = file
    ? multipart(fields, { field: file.field ?? 'file', filename: file.filename, content: file.content })
    : multipart(fields);
  return app.inject({ method, url, payload: body.payload, headers: { ...body.headers, ...headers } });
}
