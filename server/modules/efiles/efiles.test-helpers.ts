import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, expect } from 'vitest';

import { noteFromText } from '#shared/schemas/efile-note.ts';

import { activityLogs, directorEntries, efileHeads, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser } from '#server/test/factories.ts';
import { multipart } from '#server/test/multipart.ts';

// The app and helpers of the e-file tests (decision 107). Each test file that imports this module gets its own app
// and database.

export const app = await buildTestApp();

export type Who = UserRow | null;
export const call = async (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  user: Who,
  url: string,
  payload?: unknown,
  start: Parameters<typeof authHeaders>[2] = {},
): Promise<LightMyRequestResponse> =>
  app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: user ? await authHeaders(app, user, start) : {},
  });

export const word = () => `w${Math.random().toString(36).slice(2, 10)}`;
export const note = (text: string) => ({ body: noteFromText(text) });

let head: { id: string } | undefined;
export async function aHead() {
  head ??= (await app.db.insert(efileHeads).values({ code: 'ADM', name: 'Administration' }).returning())[0]!;
  return head;
}

/** A group with an employee, its head (associate director in office), another employee, a director and an admin. */
export async function cast() {
  const group = await createGroup(app, { name: `Fire Safety Group ${word()}` });
  const employee = await createUser(app, 'employee', {
    groupId: group.id,
    name: 'Asha Verma',
    designation: 'Scientist B',
  });
  const colleague = await createUser(app, 'employee', { groupId: group.id, name: 'Ravi Kumar' });
  const gh = await createUser(app, 'associate_director', {
    groupId: group.id,
    name: 'Dr Mehta',
    designation: 'Group Head',
  });
  await app.db
    .insert(directorEntries)
    .values({ groupId: group.id, userId: gh.id, designation: 'Group Head', from: '2020-01-01' });
  const director = await createUser(app, 'director', { name: 'Dr Rao', designation: 'Director' });
  const admin = await createUser(app, 'admin');
  const outsider = await createUser(app, 'employee');
  return { group, employee, colleague, gh, director, admin, outsider };
}

/** Opens a file as `user` and returns its JSON. */
export async function open(user: UserRow, over: Record<string, unknown> = {}) {
  const res = await call('POST', user, '/api/efiles', {
    subject: `Fire audit of Building 4 ${word()}`,
    headId: (await aHead()).id,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; number: string; subject: string };
}

export const ok = (res: LightMyRequestResponse, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res;
};
export const logsFor = (id: string) => app.db.select().from(activityLogs).where(eq(activityLogs.targetId, id));
export const send = (user: Who, id: string, to: string, extra: Record<string, unknown> = {}) =>
  call('POST', user, `/api/efiles/${id}/send`, { to, ...extra });
export const receive = (user: Who, id: string) => call('POST', user, `/api/efiles/${id}/receive`);
export const view = (user: Who, id: string) => call('GET', user, `/api/efiles/${id}`);

/** Uploads a PDF into a file as `user` (POST /api/efiles/{id}/items). */
export async function uploadDocument(user: Who, id: string, filename: string, content: Buffer) {
  const body = multipart({}, { field: 'document', filename, content, contentType: 'application/pdf' });
  return app.inject({
    method: 'POST',
    url: `/api/efiles/${id}/items`,
    payload: body.payload,
    headers: { ...body.headers, ...(user ? await authHeaders(app, user) : {}) },
  });
}

const work = mkdtempSync(path.join(os.tmpdir(), 'lp-efiles-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The text of each page of a PDF, as Debian's pdftotext reads it (in reading order: words split by their gaps). */
export function pagesOf(pdf: Buffer): string[] {
  const file = path.join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).split('\f').slice(0, -1);
}
