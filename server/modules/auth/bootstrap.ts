import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { users } from '#server/db/schema/index.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { findUserByEmail } from '#server/modules/users/users.service.ts';
import { hashPassword } from './auth.service.ts';

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
  const create = async (email: string, password: string) => {
    await db.transaction(async (tx) => {
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
      await recordActivity(tx, admin!, `Administrator account ${admin!.email} created at start`, {
        type: 'user',
        id: admin!.id,
      });
    });
  };
  if (opts.adminEmail && opts.adminPassword) {
    if (!(await findUserByEmail(db, opts.adminEmail))) {
      await create(opts.adminEmail, opts.adminPassword);
      log.info({ email: opts.adminEmail }, 'created the administrator from ADMIN_EMAIL');
    }
    return;
  }
  const [anyAdmin] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  if (anyAdmin) return;
  const password = randomBytes(12).toString('base64url');
  await create(FIRST_ADMIN_EMAIL, password);
  print('');
  print('  First start: an administrator account was created. This password is shown only once:');
  print(`    email:    ${FIRST_ADMIN_EMAIL}`);
  print(`    password: ${password}`);
  print('  Sign in and change it, or set ADMIN_EMAIL and ADMIN_PASSWORD.');
  print('');
}
