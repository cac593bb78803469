import { inArray } from 'drizzle-orm';

import { formatDate } from '#shared/format.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { isAdmin } from '#server/lib/roles.policy.ts';
import { closeGroupsOfMemberByIds } from '#server/modules/close-groups/close-groups.queries.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import type { NotificationSource } from './notifications.service.ts';

/**
 * The bell's subjects (decision 081) that no module of their own tells of: an applicant (for the admins:
 * "registration received"), and a close group ending (for its members).
 */

/** An applicant, named to admins only: their name and email. */
export async function describeApplicants(db: DbOrTx, actor: Actor, ids: string[]) {
  const out = new Map<string, { ref: string; title: string }>();
  if (!ids.length || !isAdmin(actor)) return out;
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(inArray(users.id, ids));
  for (const r of rows) out.set(r.id, { ref: r.name, title: r.email });
  return out;
}

/** A close group the person is a member of: its name, and its end date as the title. */
export async function describeOwnCloseGroups(db: DbOrTx, actor: Actor, ids: string[]) {
  const out = new Map<string, { ref: string; title: string }>();
  if (!ids.length) return out;
  const rows = await closeGroupsOfMemberByIds(db, actor.id, ids);
  for (const r of rows) out.set(r.id, { ref: r.name, title: formatDate(r.to, r.to, 'en') });
  return out;
}

/** The sources of this module's own subjects (server/app.ts hands them to the bell with every module's). */
export const ownNotificationSources: NotificationSource[] = [
  { subjectType: 'user', describe: describeApplicants },
  { subjectType: 'close_group', describe: describeOwnCloseGroups },
];
