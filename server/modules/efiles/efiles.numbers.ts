import { asc, eq, sql } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';

import type { DbOrTx, Tx } from '#server/db/client.ts';
import { efileHeads, efileSettings, groups } from '#server/db/schema/index.ts';
import { badRequest, conflict } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { efilesPolicy } from './efiles.policy.ts';

/**
 * File numbers (decision 107): the admin's scheme, e.g. `{lab}/{group}/{head}/{year}/{serial}`, filled in when a file
 * is opened. The serial counts per owner group and year (India's calendar year), from 1, never reused; it is written
 * with at least four digits. A group's code is the initials of its name's words (Fire Safety Group: FSG).
 */
export const groupCode = (name: string) =>
  name
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .join('')
    .slice(0, 10) || 'G';

export async function readSettings(db: DbOrTx) {
  const [row] = await db.select().from(efileSettings).limit(1);
  return row ?? { numberScheme: '{lab}/{group}/{head}/{year}/{serial}', labCode: 'LAB' };
}

/** The next number of a file of `groupId` under `headId` (inside the opening's transaction). */
export async function nextNumber(tx: Tx, groupId: string, head: { code: string }): Promise<string> {
  const settings = await readSettings(tx);
  const [group] = await tx.select({ name: groups.name }).from(groups).where(eq(groups.id, groupId));
  const year = Number(todayInIndia().slice(0, 4));
  if (!group) throw badRequest('efiles.owner_group_not_found', 'ownerGroupId');
  const code = groupCode(group.name);
  const series = `${settings.labCode}/${code}/${year}`;
  const counted = await tx.execute<{ last: number }>(sql`
    insert into efile_counters (series, last) values (${series}, 1)
    on conflict (series) do update set last = efile_counters.last + 1
    returning last`);
  const serial = String(counted.rows[0]!.last).padStart(4, '0');
  const places: Record<string, string> = {
    lab: settings.labCode,
    group: code,
    head: head.code,
    year: String(year),
    serial,
  };
  return settings.numberScheme.replace(/\{(\w+)\}/g, (_, p: string) => places[p] ?? '');
}

export async function updateSettings(db: DbOrTx, actor: Actor, input: { numberScheme: string; labCode: string }) {
  efilesPolicy.authorize(actor, 'efiles.settings');
  return db.transaction(async (tx) => {
    await tx
      .insert(efileSettings)
      .values({ id: true, ...input })
      .onConflictDoUpdate({ target: efileSettings.id, set: input });
    await recordActivity(tx, actor, 'activity.efile_settings_changed', { scheme: input.numberScheme });
    return input;
  });
}

export const listHeads = (db: DbOrTx) => db.select().from(efileHeads).orderBy(asc(efileHeads.code));

export async function addHead(db: DbOrTx, actor: Actor, input: { code: string; name: string }) {
  efilesPolicy.authorize(actor, 'efiles.settings');
  return db.transaction(async (tx) => {
    const [head] = await tx
      .insert(efileHeads)
      .values({ code: input.code.toUpperCase(), name: input.name })
      .onConflictDoNothing()
      .returning();
    if (!head) throw conflict('efiles.head_code_taken', 'code');
    await recordActivity(
      tx,
      actor,
      'activity.efile_head_added',
      { code: head.code, name: head.name },
      {
        type: 'efile_head',
        id: head.id,
      },
    );
    return head;
  });
}

export async function activeHead(db: DbOrTx, headId: string) {
  const [head] = await db.select().from(efileHeads).where(eq(efileHeads.id, headId));
  if (!head || !head.active) throw badRequest('efiles.head_not_found', 'headId');
  return head;
}
