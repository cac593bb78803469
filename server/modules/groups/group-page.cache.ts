import { todayInIndia } from '#shared/format.ts';
import { groupJson, myGroupJson } from '#shared/schemas/group.ts';

import type { DbOrTx } from '#server/db/client.ts';
import type { GroupRow } from '#server/db/schema/index.ts';
import { answerCache } from '#server/lib/answer-cache.ts';
import { type PreparedAnswer, prepareJson } from '#server/lib/prepared-answer.ts';

import { presentEmployee, presentGroup } from './groups.presenter.ts';
import { listMembers, loadGroupDetails } from './groups.service.ts';

/**
 * NOTE: the group page is the heaviest read of a signed-in morning (five reads besides the group row, and a large
 * answer to check, serialise and compress), and with My Group it changes a few times a week. Their answers are kept
 * per group and view under the version of what they were made from: the group row's `content_version` (changed by the
 * database itself, in the writing transaction, whenever anything these pages show changes: migration 0017) and the
 * day in India (notices expire by date). The routes read the group row on every request anyway, so a write is seen by
 * the very next read on every node: no notice, no expiry, nothing stale (decision 054). Keyed by
 * database, so test apps never share entries; one entry per group and view, replaced when the version moves on
 * (server/lib/answer-cache.ts).
 */
/** At most this many group views (three per group) are kept. */
const groupAnswers = answerCache('group pages', { entries: 3000, bytes: 32 * 1024 * 1024 });

/** The answer `make` gives for this view of the group, made once per version of the group and day. */
const groupAnswer = (db: DbOrTx, group: GroupRow, view: string, make: () => Promise<PreparedAnswer>) =>
  groupAnswers(db, `${group.id}:${view}`, `${group.contentVersion}:${todayInIndia()}`, make);

/** The group page (GET /api/groups/id/{id}) for a viewer who may, or may not, manage the group. */
export const groupPageAnswer = (db: DbOrTx, group: GroupRow, canManage: boolean) =>
  groupAnswer(db, group, canManage ? 'page:manager' : 'page', async () =>
    prepareJson(groupJson.parse(presentGroup(group, await loadGroupDetails(db, group.id), canManage))),
  );

/** My Group (GET /api/groups/my-group): the group's name, description and members. */
export const myGroupAnswer = (db: DbOrTx, group: GroupRow) =>
  groupAnswer(db, group, 'my-group', async () =>
    prepareJson(
      myGroupJson.parse({
        _id: group.id,
        name: group.name,
        description: group.description,
        employees: (await listMembers(db, group.id)).map(presentEmployee),
      }),
    ),
  );
