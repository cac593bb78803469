import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

import { todayInIndia } from '#shared/format.ts';

import { activityLogs, letterMovements, notifications, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';

// The app and helpers of the dak-movement tests (decision 020), split by route: letters.marking, letters.inbox and
// letters.pendency (.test.ts). Each test file that imports this module gets its own app and database.

export const app = await buildTestApp();

export const word = () => `w${Math.random().toString(36).slice(2, 10)}`;
export const addDays = (n: number) => {
  const d = new Date(`${todayInIndia()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

export type Who = UserRow | null;
export const call = async (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  user: Who,
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> =>
  app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: user ? await authHeaders(app, user) : {},
  });

/** Uploads a letter as `user` (subject with a unique word) and returns its JSON. */
export async function upload(user: UserRow, over: Record<string, string> = {}) {
  const res = await postLetter(app, user, letterFields({ letterSub: `Fire audit ${word()}`, ...over }), letterPdf());
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; letterId: string; letterSub: string; frozen: boolean; canMark: boolean };
}

export const mark = (user: Who, id: string, payload: unknown) =>
  call('POST', user, `/api/dac/${id}/movements`, payload);
export const movementsOf = (id: string) =>
  app.db.select().from(letterMovements).where(eq(letterMovements.letterId, id));
export const notesOf = (userId: string) => app.db.select().from(notifications).where(eq(notifications.userId, userId));
export const inbox = async (user: UserRow, query = '') => {
  const res = await call('GET', user, `/api/dac/inbox${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    letters: {
      _id: string;
      letterSub: string;
      movement: { status: string; overdue: boolean; readAt: string | null };
    }[];
    next: string | null;
  };
};
export const count = async (user: UserRow) => (await call('GET', user, '/api/dac/inbox/count')).json();
export const logsFor = (id: string) => app.db.select().from(activityLogs).where(eq(activityLogs.targetId, id));

/** The register fields of a letter as GET /api/dac/{id} answered them, for a PUT, with `changes` on top. */
export const registerFields = (full: Record<string, unknown>, changes: Record<string, string>) => ({
  letterSub: full.letterSub,
  letterNo: full.letterNo,
  letterDate: full.letterDate,
  docketNo: full.docketNo,
  docketDate: full.docketDate,
  category: full.category,
  establishment: full.establishment,
  letterLanguage: full.letterLanguage,
  letterCommunBy: full.letterCommunBy,
  ...changes,
});

/** A letter uploaded by an employee and marked to an associate director, who has received it. */
export async function markedAndReceived() {
  const group = await createGroup(app);
  const uploader = await createUser(app, 'employee', { groupId: group.id });
  const ad = await createUser(app, 'associate_director', { groupId: group.id });
  const letter = await upload(uploader);
  expect((await mark(uploader, letter._id, { to: [ad.id], remarks: 'Please examine' })).statusCode).toBe(201);
  expect((await call('POST', ad, `/api/dac/${letter._id}/receive`)).statusCode).toBe(200);
  return { group, uploader, ad, letter };
}
