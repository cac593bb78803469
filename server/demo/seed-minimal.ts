import { asc, eq } from 'drizzle-orm';

import type { Db } from '#server/db/client.ts';
import { groups, labs } from '#server/db/schema/index.ts';

export const MINIMAL_LAB_NAME = 'Centre for Fire, Explosive and Environment Safety';
export const MINIMAL_GROUP_NAMES = ['Fire Safety Research Group', 'Explosives Safety Group'] as const;

export interface MinimalSeed {
  labId: string;
  /** Group ids in the order of MINIMAL_GROUP_NAMES. */
  groupIds: string[];
}

/**
 * The least data a fresh portal needs before people can be approved: the one lab and two groups (approval puts a
 * user into a group, and there is no API yet that creates a lab or a group). Used by the e2e global setup against its
 * own DATA_DIR before the server starts. Creates only what is missing, so it may run more than once.
 */
export async function seedMinimal(db: Db): Promise<MinimalSeed> {
  return db.transaction(async (tx) => {
    let [lab] = await tx.select().from(labs).orderBy(asc(labs.createdAt)).limit(1);
    lab ??= (
      await tx
        .insert(labs)
        .values({
          name: MINIMAL_LAB_NAME,
          domain: 'Fire, explosive and environment safety',
          about: 'Research on fire, explosive and environment safety.',
        })
        .returning()
    )[0]!;
    const groupIds: string[] = [];
    for (const name of MINIMAL_GROUP_NAMES) {
      let [group] = await tx.select({ id: groups.id }).from(groups).where(eq(groups.name, name)).limit(1);
      group ??= (
        await tx
          .insert(groups)
          .values({ labId: lab.id, name, description: `${name} of the lab.` })
          .returning()
      )[0]!;
      groupIds.push(group.id);
    }
    return { labId: lab.id, groupIds };
  });
}
