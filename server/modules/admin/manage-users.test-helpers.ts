import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

import { activityLogs } from '#server/db/schema/index.ts';
import { authHeaders, createUser, TEST_PASSWORD } from '#server/test/factories.ts';

// Shared by the Manage Users tests: manage-users.review and manage-users.accounts (.test.ts).

export const actionsOn = async (app: FastifyInstance, userId: string) =>
  (await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, userId))).map((l) => l.action);
export const login = (app: FastifyInstance, email: string, password = TEST_PASSWORD) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
export const tick = () => new Promise((r) => setTimeout(r, 5)); // session versions must differ from those in older tokens

/** Visitor 401; the user themself, another user and a director 403 — every Manage Users route is admin-only. */
export async function expectAdminOnly(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) {
  expect((await app.inject({ method, url, payload })).statusCode).toBe(401);
  const target = url.match(/[0-9a-f-]{36}/)?.[0];
  const others = [await createUser(app, 'employee'), await createUser(app, 'director')];
  for (const user of others) {
    const res = await app.inject({ method, url, payload, headers: await authHeaders(app, user) });
    expect(res.statusCode).toBe(403);
  }
  if (target) {
    const { users } = await import('#server/db/schema/index.ts');
    const [self] = await app.db.select().from(users).where(eq(users.id, target));
    if (self?.status === 'approved' && self.role !== 'admin') {
      expect((await app.inject({ method, url, payload, headers: await authHeaders(app, self) })).statusCode).toBe(403);
    }
  }
}
