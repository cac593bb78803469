// The demo's delegations of dak (server/demo/demo-seed.ts; decision 078): the fire group's head has delegated their
// dak to the demo employee while on tour (in force), and the director has named a group head for a week to come,
// both through the service the API calls, so the rows, the activity and the audit trail are the API's own.
import { eq } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';

import type { Db } from '#server/db/client.ts';
import { dakDelegations, type UserRow } from '#server/db/schema/index.ts';
import type { AuditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { createDelegation } from '#server/modules/letters/letters.delegation.ts';
import { toActor } from '#server/plugins/auth.ts';

import { DAY, type DemoWorld, isoDate, type SeedContext } from './demo-seed-context.ts';

/** YYYY-MM-DD `n` days after `date`. */
const plusDays = (date: string, n: number) => isoDate(new Date(Date.parse(date) + n * DAY));

export async function seedDelegations(ctx: SeedContext, world: DemoWorld): Promise<void> {
  const { tx, daysAgo, add } = ctx;
  const db = tx as unknown as Db; // the service opens a transaction: here a savepoint of the seed's
  const who = (u: UserRow): AuditWho => ({
    actor: { id: u.id, name: u.name, role: u.role },
    address: null,
    userAgent: 'npm run demo',
  });
  // The service counts from the real today (India); a delegation cannot start before it, so it is made from today
  // and then dated back to when the story has it start.
  const start = todayInIndia();
  const head = world.heads.get('fire')!;
  const employee = (world.byGroup.get('fire') ?? []).find((u) => u.role === 'employee')!;
  const onTour = await createDelegation(db, toActor(head), who(head), {
    delegateId: employee.id,
    fromDate: start,
    toDate: plusDays(start, 6),
  });
  const began = isoDate(daysAgo(2));
  await tx
    .update(dakDelegations)
    .set({ fromDate: began < start ? began : start, createdAt: daysAgo(3) })
    .where(eq(dakDelegations.id, onTour._id));
  add('delegations');

  const other = world.heads.get('explosives')!;
  await createDelegation(db, toActor(world.director), who(world.director), {
    delegateId: other.id,
    fromDate: plusDays(start, 10),
    toDate: plusDays(start, 14),
  });
  add('delegations');
}
