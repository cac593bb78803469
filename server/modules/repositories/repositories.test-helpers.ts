import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import type { FastifyInstance } from 'fastify';
import { beforeAll, expect } from 'vitest';

import type { Role } from '#shared/constants.ts';

import type { GroupRow, UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';
import { multipart, type MultipartFile, SAMPLE_FILES } from '#server/test/multipart.ts';

// The app and helpers of the repository tests, split by subject: repositories.software, repositories.trial and
// repositories.access (.test.ts). Each test file that imports this module gets its own app and database, set before its
// first test (beforeAll): read `app` inside tests and hooks, not when a file is collected.

// The refusal's English (spec §8): the catalogue's sentence of repositories.not_your_group.
export const NOT_YOUR_GROUP = 'Associate directors may upload repositories only to their own group.';

export let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});

export type Fields = Record<string, string | undefined>;
export const zip = (filename = 'source.zip', content: Buffer = SAMPLE_FILES.zip): MultipartFile => ({
  field: 'file',
  filename,
  content,
});

/** Sends a multipart upload as `user` (or anonymously); fields first, then the file, as the web form does. */
export async function upload(url: string, user: UserRow | null, fields: Fields, file?: MultipartFile) {
  const body = file ? multipart(fields, file) : multipart(fields);
  return app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...(user ? await authHeaders(app, user) : {}) },
  });
}

export const stored = (area: string) => {
  const dir = path.join(app.config.dataDir, 'uploads', area);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};

/** Runs `send` and checks that it left no new file on disk in `area`. */
export async function leavesNothing<T>(area: string, send: () => Promise<T>): Promise<T> {
  const before = stored(area);
  const result = await send();
  expect(stored(area)).toEqual(before);
  return result;
}

export async function staff(role: Role, group: GroupRow | null) {
  return createUser(app, role, { groupId: group?.id ?? null, name: `${role} ${randomUUID().slice(0, 4)}` });
}
