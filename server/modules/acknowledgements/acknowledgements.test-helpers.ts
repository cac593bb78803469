import { randomUUID } from 'node:crypto';

import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

import { todayInIndia } from '#shared/format.ts';

import { acknowledgements, directorEntries, type GroupRow, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createGroup, createLab, createUser } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';

// The people and helpers of the acknowledgements tests (acknowledgements.*.test.ts). Every file that imports this
// module builds its shared app before its first test; each test makes its own cast (groups and people), so tests
// keep apart on the one database. A lab-wide audience takes every approved person of the database: tests count it.

buildTestAppBeforeAll();

/** A day `n` days from today (India), YYYY-MM-DD. */
export const dayFromToday = (n: number, today = todayInIndia()) =>
  new Date(Date.parse(today) + n * 86_400_000).toISOString().slice(0, 10);

export interface Cast {
  app: FastifyInstance;
  labId: string;
  /** Groups A and B are the audience of the tests' circulars; C is not. */
  groupA: GroupRow;
  groupB: GroupRow;
  groupC: GroupRow;
  admin: UserRow;
  director: UserRow;
  /** The associate director heading A (named by its current director entry), and the one heading C. */
  headA: UserRow;
  headC: UserRow;
  a1: UserRow;
  a2: UserRow;
  b1: UserRow;
  c1: UserRow;
  /** An employee of no group. */
  loner: UserRow;
  as: (who: UserRow | null) => Promise<Record<string, string>>;
}

async function head(app: FastifyInstance, group: GroupRow, name: string) {
  const user = await createUser(app, 'associate_director', { name, groupId: group.id });
  await app.db
    .insert(directorEntries)
    .values({ groupId: group.id, userId: user.id, designation: 'Assistant Director', from: '2024-01-01' });
  return user;
}

export async function cast(): Promise<Cast> {
  const app = await buildTestApp();
  const labId = (await createLab(app)).id;
  const tag = randomUUID().slice(0, 6);
  const groupA = await createGroup(app, { name: `Alpha ${tag}` });
  const groupB = await createGroup(app, { name: `Beta ${tag}` });
  const groupC = await createGroup(app, { name: `Gamma ${tag}` });
  const user = (role: Parameters<typeof createUser>[1], name: string, groupId: string | null = null) =>
    createUser(app, role, { name, groupId, designation: "Scientist 'C'" });
  const people = {
    admin: await user('admin', 'Asha Admin'),
    director: await user('director', 'Dev Director'),
    headA: await head(app, groupA, 'Hema Head'),
    headC: await head(app, groupC, 'Hari Head'),
    a1: await user('employee', 'Anil Alpha', groupA.id),
    a2: await user('employee', 'Bela Alpha', groupA.id),
    b1: await user('employee', 'Chetan Beta', groupB.id),
    c1: await user('employee', 'Gita Gamma', groupC.id),
    loner: await user('employee', 'Lata Loner'),
  };
  const headers = new Map<string, Record<string, string>>();
  const as = async (who: UserRow | null) => {
    if (!who) return {};
    if (!headers.has(who.id)) headers.set(who.id, await authHeaders(app, who));
    return headers.get(who.id)!;
  };
  return { app, labId, groupA, groupB, groupC, ...people, as };
}

/** A multipart POST or PUT as `who`. */
export async function send(
  c: Cast,
  who: UserRow | null,
  method: 'POST' | 'PUT',
  url: string,
  fields: Record<string, string | undefined>,
  withFile = true,
) {
  const body = withFile
    ? multipart(fields, { field: 'file', filename: 'circular.pdf', content: SAMPLE_FILES.pdf })
    : multipart(fields);
  return c.app.inject({ method, url, payload: body.payload, headers: { ...body.headers, ...(await c.as(who)) } });
}

/** A JSON call as `who`. */
export async function call(c: Cast, who: UserRow | null, method: 'GET' | 'POST', url: string) {
  return c.app.inject({ method, url, headers: await c.as(who) });
}

/** The fields of a circular asking groups A and B to acknowledge it by `deadline`. */
export const toGroupsAB = (c: Cast, deadline = dayFromToday(7), name = 'Explosives storage') => ({
  name,
  description: 'Storage rules for explosives',
  requiresAcknowledgement: 'true',
  acknowledgeBy: deadline,
  audienceScope: 'groups',
  audienceGroups: JSON.stringify([c.groupA.id, c.groupB.id]),
});

/** Publishes a lab circular to groups A and B (as the admin); its JSON. */
export async function publishToAB(c: Cast, deadline?: string, name?: string) {
  const res = await send(c, c.admin, 'POST', `/api/labs/${c.labId}/circulars`, toGroupsAB(c, deadline, name));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; acknowledgement: { _id: string; deadline: string } };
}

/** The row of `user` for the request. */
export async function rowOf(c: Cast, requestId: string, user: UserRow) {
  const [row] = await c.app.db
    .select()
    .from(acknowledgements)
    .where(and(eq(acknowledgements.requestId, requestId), eq(acknowledgements.userId, user.id)));
  return row;
}

/** Makes a row overdue: its due date moved to `days` days ago. */
export async function overdue(c: Cast, requestId: string, user: UserRow, days = 2) {
  await c.app.db
    .update(acknowledgements)
    .set({ dueOn: dayFromToday(-days) })
    .where(and(eq(acknowledgements.requestId, requestId), eq(acknowledgements.userId, user.id)));
}

/** Opens and acknowledges `user`'s row through the API. */
export async function acknowledgeAs(c: Cast, requestId: string, user: UserRow) {
  const row = (await rowOf(c, requestId, user))!;
  expect((await call(c, user, 'POST', `/api/acknowledgements/${row.id}/open`)).statusCode).toBe(204);
  const res = await call(c, user, 'POST', `/api/acknowledgements/${row.id}/acknowledge`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { _id: string; acknowledgedAt: string };
}

/** Who a request asks, with their due day and group, by person. */
export const audienceOf = async (c: Cast, requestId: string) =>
  (
    await c.app.db
      .select({ userId: acknowledgements.userId, dueOn: acknowledgements.dueOn, groupId: acknowledgements.groupId })
      .from(acknowledgements)
      .where(eq(acknowledgements.requestId, requestId))
  ).sort((x, y) => x.userId.localeCompare(y.userId));

/** People's ids, sorted, to compare with an audience. */
export const ids = (...people: { id: string }[]) => people.map((p) => p.id).sort();
