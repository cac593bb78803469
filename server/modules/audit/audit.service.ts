import type { DbOrTx } from '#server/db/client.ts';
import { activityLogs } from '#server/db/schema/index.ts';

/**
 * Records one write in the activity log (who, what, on which record, when). Call it inside the transaction of the
 * write it describes, so that either both are kept or neither.
 */
export async function recordActivity(
  db: DbOrTx,
  actor: { id: string } | null,
  action: string,
  target?: { type: string; id: string },
): Promise<void> {
  await db.insert(activityLogs).values({
    userId: actor?.id ?? null,
    action,
    targetType: target?.type ?? null,
    targetId: target?.id ?? null,
  });
}
