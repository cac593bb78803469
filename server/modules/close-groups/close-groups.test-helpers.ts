import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

import { todayInIndia } from '#shared/format.ts';

import { activityLogs, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';

// The people and helpers of the close group tests, split by subject: close-groups.admin (the admin's routes),
// close-groups.documents (the members' routes) and close-groups.time-box (.test.ts). Each test file that imports this
// module gets its own app and database.

buildTestAppBeforeAll();

/** YYYY-MM-DD `days` after (or before) today in India. */
export function dayFromToday(days: number): string {
  const d = new Date(`${todayInIndia()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export interface Cast {
  app: FastifyInstance;
  admin: UserRow;
  alice: UserRow;
  bob: UserRow;
  outsider: UserRow;
  as: (u: UserRow) => Promise<{ authorization: string }>;
}

/** An admin, two members (Alice, Bob) and an outsider on the shared test app. */
export async function cast(): Promise<Cast> {
  const app = await buildTestApp();
  const [admin, alice, bob, outsider] = await Promise.all([
    createUser(app, 'admin', { name: 'Admin Officer' }),
    createUser(app, 'employee', { name: 'Alice Rao' }),
    createUser(app, 'employee', { name: 'Bob Singh' }),
    createUser(app, 'director', { name: 'Outside Director' }),
  ]);
  return { app, admin, alice, bob, outsider, as: (u: UserRow) => authHeaders(app, u) };
}

export const closeGroupBody = (members: string[], values: Record<string, unknown> = {}) => ({
  groupName: 'Blast wall review',
  groupPurpose: 'Review the blast wall design before the trial.',
  groupDuration: { from: dayFromToday(-5), to: dayFromToday(25) },
  requestedBy: members,
  adminRemarks: 'Approved by the Director.',
  ...values,
});

export async function createCloseGroup(c: Cast, values: Record<string, unknown> = {}) {
  const res = await c.app.inject({
    method: 'POST',
    url: '/admin/close-group',
    headers: await c.as(c.admin),
    payload: closeGroupBody([c.alice.id, c.bob.id], values),
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { _id: string; groupName: string };
}

export async function upload(
  c: Cast,
  user: UserRow | null,
  groupId: string,
  file = { filename: 'minutes.pdf', content: SAMPLE_FILES.pdf },
) {
  const body = multipart({}, { field: 'document', ...file });
  return c.app.inject({
    method: 'POST',
    url: `/api/close-groups/${groupId}/upload`,
    payload: body.payload,
    headers: { ...body.headers, ...(user ? await c.as(user) : {}) },
  });
}

export async function uploaded(c: Cast, user: UserRow, groupId: string) {
  const res = await upload(c, user, groupId);
  expect(res.statusCode).toBe(201);
  return res.json().document as { _id: string; filename: string; url: string };
}

export const fileIdOf = (url: string) => url.split('/').pop()!;
export const actionsFor = async (app: FastifyInstance, targetId: string) =>
  (await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, targetId))).map((a) => a.action);
