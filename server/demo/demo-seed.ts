import { count, eq, ne } from 'drizzle-orm';

import type { Db } from '#server/db/client.ts';
import { labs, users } from '#server/db/schema/index.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import type { FileStore } from '#server/modules/files/storage.ts';

import { DEMO_LAB } from './demo-data.ts';
import { DemoFileStore } from './demo-files.ts';
import { seedAcknowledgements } from './demo-seed-acknowledgements.ts';
import { seedCloseGroups } from './demo-seed-close-groups.ts';
import { DAY, type DemoAccount, type DemoWorld, random, type SeedContext } from './demo-seed-context.ts';
import { seedDak } from './demo-seed-dak.ts';
import { seedDelegations } from './demo-seed-delegation.ts';
import { seedDispatch } from './demo-seed-dispatch.ts';
import { seedDrafts } from './demo-seed-drafts.ts';
import { seedEfiles } from './demo-seed-efiles.ts';
import { seedGroupItems, seedGroups } from './demo-seed-groups.ts';
import { seedDirectorHistory, seedGallery, seedLab, seedLabItems } from './demo-seed-lab.ts';
import { seedLetters } from './demo-seed-letters.ts';
import { seedPeople } from './demo-seed-people.ts';
import { seedRepositories } from './demo-seed-repositories.ts';

export { DEMO_EMAIL_DOMAIN, demoEmail, type DemoAccount } from './demo-seed-context.ts';

export const DEMO_PASSWORD = 'Demo@2026';

export interface DemoSummary {
  accounts: DemoAccount[];
  password: string;
  counts: Record<string, number>;
}

/**
 * Why this database is not empty enough for the demo, or null. The demo fills an empty portal only; the one
 * administrator a first start creates (bootstrap) is allowed.
 */
export async function demoRefusal(db: Db): Promise<string | null> {
  const [{ labCount }] = (await db.select({ labCount: count() }).from(labs)) as [{ labCount: number }];
  const [{ others }] = (await db.select({ others: count() }).from(users).where(ne(users.role, 'admin'))) as [
    { others: number },
  ];
  const [{ admins }] = (await db.select({ admins: count() }).from(users).where(eq(users.role, 'admin'))) as [
    { admins: number },
  ];
  if (labCount === 0 && others === 0 && admins <= 1) return null;
  const what = [
    labCount ? 'a lab' : '',
    others + admins > 0 ? `${others + admins} user account${others + admins === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return `This portal already holds ${what}. The demo fills only an empty portal, so nothing was changed.`;
}

/**
 * Fills an empty portal with a believable lab: the lab pages, five groups, about twenty-five approved staff of every
 * role, pending registrations, notices and circulars with real PDF files, gallery photos, group documents, letters
 * marked, received, overdue and closed (dak at work), close groups, repositories and e-files in every state, one part per domain (demo-seed-*.ts). Everything is written in one transaction; files go through the storage layout
 * (through the storage given) and are removed again if the transaction fails.
 */
export async function seedDemo(
  db: Db,
  storage: FileStore,
  opts: { today?: Date; password?: string } = {},
): Promise<DemoSummary> {
  const refusal = await demoRefusal(db);
  if (refusal) throw new Error(refusal);
  const today = opts.today ?? new Date();
  const daysAgo = (n: number) => new Date(today.getTime() - n * DAY);
  const rnd = random(20261121);
  const password = opts.password ?? DEMO_PASSWORD;
  const passwordHash = await hashPassword(password);
  const store = new DemoFileStore(storage);
  const counts: Record<string, number> = {};
  const add = (what: string, n = 1) => (counts[what] = (counts[what] ?? 0) + n);
  const accounts: DemoAccount[] = [];
  const heading = DEMO_LAB.name;

  try {
    await db.transaction(async (tx) => {
      const ctx: SeedContext = { tx, store, today, daysAgo, rnd, passwordHash, add, accounts, heading };
      const lab = await seedLab(ctx);
      const groupIds = await seedGroups(ctx, { lab });
      const world: DemoWorld = { lab, groupIds, ...(await seedPeople(ctx, { lab, groupIds })) };
      await seedDirectorHistory(ctx, world);
      await seedLabItems(ctx, world);
      await seedGallery(ctx, world);
      await seedGroupItems(ctx, world);
      const register = await seedLetters(ctx, world);
      await seedDak(ctx, world, register);
      await seedDelegations(ctx, world);
      await seedAcknowledgements(ctx, world);
      await seedCloseGroups(ctx, world);
      await seedRepositories(ctx, world);
      await seedEfiles(ctx, world, register);
      await seedDrafts(ctx, world);
      await seedDispatch(ctx, world);
      add('files', store.count);
    });
  } catch (err) {
    await store.discardAll();
    throw err;
  }
  return { accounts, password, counts };
}
