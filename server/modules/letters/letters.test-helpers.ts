import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

import { type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';

// The app and helpers of the letter register tests, split by route: letters.register, letters.list and letters.edit
// (.test.ts). Each test file that imports this module gets its own app and database.

export const app = await buildTestApp();

/** A unique word, so tests sharing the file's database find only their own letters. */
export const word = () => `w${Math.random().toString(36).slice(2, 10)}`;

export const pdf = letterPdf('Reply to HQ.pdf');
export const lettersOnDisk = () => {
  const dir = path.join(app.config.dataDir, 'uploads', 'letters');
  return existsSync(dir) ? readdirSync(dir).length : 0;
};

/** Uploads a letter as `user` and returns its JSON. */
export async function upload(user: UserRow, over: Record<string, string | undefined> = {}) {
  const res = await postLetter(app, user, letterFields(over), pdf);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export const get = async (user: UserRow | null, url: string): Promise<LightMyRequestResponse> =>
  app.inject({ method: 'GET', url, headers: user ? await authHeaders(app, user) : {} });
export const search = async (user: UserRow, q: string, extra = '') => {
  const res = await get(user, `/api/dac?q=${encodeURIComponent(q)}&limit=100${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { _id: string; letterId: string; letterSub: string }[];
};
export const put = async (user: UserRow | null, id: string, payload: unknown): Promise<LightMyRequestResponse> =>
  app.inject({
    method: 'PUT',
    url: `/api/dac/${id}`,
    payload: payload as object,
    headers: user ? await authHeaders(app, user) : {},
  });
export const del = async (user: UserRow | null, url: string): Promise<LightMyRequestResponse> =>
  app.inject({ method: 'DELETE', url, headers: user ? await authHeaders(app, user) : {} });
export const seq = (letterId: string) => Number(letterId.split('-')[2]);
