import { randomBytes } from 'node:crypto';

import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';

import type { Db } from '#server/db/client.ts';
import { users } from '#server/db/schema/index.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { administrators } from '#server/modules/users/users.policy.ts';
import { findUserByEmail } from '#server/modules/users/users.queries.ts';

export const FIRST_ADMIN_EMAIL = 'admin@lab.local';

/**
 * Makes sure someone can administer the portal: ADMIN_EMAIL + ADMIN_PASSWORD create that approved admin if no user
 * has that email; with neither, the first start (no admin at all) creates one and prints its password once.
 */
export async function ensureAdmin(
  db: Db,
  opts: { adminEmail?: string; adminPassword?: string },
  log: FastifyBaseLogger,
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<void> {
  // Nodes starting together on one database (decision 052) take turns here, so only one creates the administrator.
  const created = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727275)`);
    const create = async (email: string, password: string) => {
      const [admin] = await tx
        .insert(users)
        .values({
          email: email.toLowerCase(),
          passwordHash: await hashPassword(password),
          role: 'admin',
          status: 'approved',
          name: 'Administrator',
          approvedAt: new Date(),
        })
        .returning();
      await recordActivity(
        tx,
        admin!,
        'activity.admin_created_at_start',
        { email: admin!.email },
        { type: 'user', id: admin!.id },
      );
    };
    if (opts.adminEmail && opts.adminPassword) {
      if (await findUserByEmail(tx, opts.adminEmail)) return null;
      await create(opts.adminEmail, opts.adminPassword);
      return { email: opts.adminEmail, password: null };
    }
    const [anyAdmin] = await tx.select({ id: users.id }).from(users).where(administrators()).limit(1);
    if (anyAdmin) return null;
    const password = randomBytes(12).toString('base64url');
    await create(FIRST_ADMIN_EMAIL, password);
    return { email: FIRST_ADMIN_EMAIL, password };
  });
  if (!created) return;
  if (!created.password) {
    log.info({ email: created.email }, 'created the administrator from ADMIN_EMAIL');
    return;
  }
  print('');
  print('  First start: an administrator account was created. This password is shown only once:');
  print(`    email:    ${FIRST_ADMIN_EMAIL}`);
  print(`    password: ${created.password}`);
  print('  Sign in and change it, or set ADMIN_EMAIL and ADMIN_PASSWORD.');
  print('');
}
