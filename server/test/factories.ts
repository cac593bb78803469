import { randomUUID } from 'node:crypto';

import type { FastifyInstance, FastifyRequest, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

import type { Role } from '#shared/constants.ts';

import { type GroupRow, groups, type LabRow, labs, type UserRow, users } from '#server/db/schema/index.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import type { SessionStart } from '#server/plugins/auth.ts';

import { buildTestApp } from './app.ts';
import { multipart, type MultipartFile, SAMPLE_FILES } from './multipart.ts';

export const TEST_PASSWORD = 'secret123';
let passwordHash: Promise<string> | undefined;

/** The one lab, created on first use. */
export async function createLab(app: FastifyInstance, values: Partial<LabRow> = {}): Promise<LabRow> {
  const [existing] = await app.db.select().from(labs).limit(1);
  if (existing) return existing;
  const [lab] = await app.db
    .insert(labs)
    .values({ name: 'Centre for Fire, Explosive and Environment Safety', ...values })
    .returning();
  return lab!;
}

export async function createGroup(app: FastifyInstance, values: Partial<GroupRow> = {}): Promise<GroupRow> {
  const lab = await createLab(app);
  const [group] = await app.db
    .insert(groups)
    .values({ labId: lab.id, name: `Group ${randomUUID().slice(0, 8)}`, description: 'A research group', ...values })
    .returning();
  return group!;
}

/** An approved user of the given role (password TEST_PASSWORD), unless `values` says otherwise. */
export async function createUser(
  app: FastifyInstance,
  role: Role = 'employee',
  values: Partial<UserRow> = {},
): Promise<UserRow> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const [user] = await app.db
    .insert(users)
    .values({
      email: `${role}-${randomUUID().slice(0, 8)}@lab.test`,
      passwordHash: await passwordHash,
      role,
      status: 'approved',
      name: `Test ${role.replace('_', ' ')}`,
      ...values,
    })
    .returning();
  return user!;
}

/** A real token for a user, with its session, as a password sign-in issues. */
export const tokenFor = (app: FastifyInstance, user: UserRow, start: Partial<SessionStart> = {}) =>
  app.startSession(app.db, user, fakeRequest, { method: 'password', ...start });

/** Authorization headers for a user (a real token, as login issues). */
export const authHeaders = async (app: FastifyInstance, user: UserRow, start: Partial<SessionStart> = {}) => ({
  authorization: `Bearer ${await tokenFor(app, user, start)}`,
});

/** What startSession reads of a request: a test client's address and browser. */
const fakeRequest = { ip: '127.0.0.1', headers: { 'user-agent': 'lab-portal tests' } } as unknown as FastifyRequest;

/** A new approved user of `role`, with the test app and headers to call it as them. */
export async function signIn(role: Role = 'employee', values: Partial<UserRow> = {}) {
  const app = await buildTestApp();
  const user = await createUser(app, role, values);
  return { app, user, headers: await authHeaders(app, user) };
}

/** The nine fields of the letter form (spec §3 Letter), any of them replaced (or left out, as undefined) by `over`. */
export const letterFields = (over: Record<string, string | undefined> = {}) => ({
  letterSub: 'Fire drill schedule for the winter',
  letterNo: 'HQ/FS/123',
  letterDate: '2026-03-01',
  docketNo: 'D-42',
  docketDate: '2026-03-03',
  category: 'Circular',
  establishment: 'CFEES Delhi',
  letterLanguage: 'English',
  letterCommunBy: 'Speed Post',
  ...over,
});

/** A small PDF as the letter form's file. */
export const letterPdf = (filename = 'letter.pdf', content: Buffer = SAMPLE_FILES.pdf): MultipartFile => ({
  field: 'file',
  filename,
  content,
});

/** Sends the letter form (POST /api/dac) as `user`, or as a visitor with null; the answer as inject gives it. */
export async function postLetter(
  app: FastifyInstance,
  user: UserRow | null,
  values: Record<string, string | undefined>,
  ...files: MultipartFile[]
): Promise<LightMyRequestResponse> {
  const body = multipart(values, ...files);
  return app.inject({
    method: 'POST',
    url: '/api/dac',
    payload: body.payload,
    headers: { ...body.headers, ...(user ? await authHeaders(app, user) : {}) },
  });
}

/**
 * Checks that a signed-in read is answered from a kept copy: `private, no-cache`, the same ETag when asked again, and
 * 304 for that ETag. `ask` sends the read with the extra headers given. Returns the ETag.
 */
export async function expectKeptCopy(
  ask: (extra?: Record<string, string>) => Promise<LightMyRequestResponse>,
): Promise<string> {
  const first = await ask();
  expect(first.statusCode).toBe(200);
  expect(first.headers['cache-control']).toBe('private, no-cache');
  const etag = String(first.headers.etag);
  expect((await ask()).headers.etag).toBe(etag);
  expect((await ask({ 'if-none-match': etag })).statusCode).toBe(304);
  return etag;
}
