import { asc, eq, inArray, sql } from 'drizzle-orm';

import type { EfileJson } from '#shared/schemas/efile.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { efileMovements, efileNoteVersions, groups } from '#server/db/schema/index.ts';
import { loadViews } from '#server/modules/letters/letters.register.views.ts';
import type { Actor } from '#server/plugins/auth.ts';

import type { Access } from './efiles.access.ts';
import type { EfileListRow } from './efiles.lists.ts';
import { presentEfile, presentMovement } from './efiles.presenter.ts';
import { loadPages, peopleById } from './efiles.service.ts';

/** The file as its screen shows it: both panes (every note and item), the route and what the reader may do. */
export async function efileDetail(db: DbOrTx, actor: Actor, access: Access): Promise<EfileJson> {
  const { file } = access;
  const [{ notes, items }, summaryRows, [group]] = await Promise.all([
    loadPages(db, file.id),
    db.execute<EfileListRow>(sql`
      select e.id, e.number, e.subject, e.classification, e.state, h.code as head_code, h.name as head_name,
        e.holder_id, u.name as holder_name, u.designation as holder_designation, e.moved_at, e.created_at,
        false as in_transit
      from efiles e join efile_heads h on h.id = e.head_id join users u on u.id = e.holder_id where e.id = ${file.id}`),
    db.select({ id: groups.id, name: groups.name }).from(groups).where(eq(groups.id, file.ownerGroupId)),
  ]);
  const noteIds = notes.map((n) => n.id);
  const letterIds = items.flatMap((i) => (i.letterId ? [i.letterId] : []));
  const [versions, people, letters] = await Promise.all([
    noteIds.length
      ? db
          .selectDistinct({ noteId: efileNoteVersions.noteId })
          .from(efileNoteVersions)
          .where(inArray(efileNoteVersions.noteId, noteIds))
      : Promise.resolve([]),
    peopleById(db, [file.createdBy, ...file.route, ...notes.map((n) => n.authorId)]),
    letterIds.length ? loadViews(db, letterIds) : Promise.resolve([]),
  ]);
  return presentEfile(actor, access, {
    summary: { ...summaryRows.rows[0]!, in_transit: access.pending !== null },
    ownerGroup: group ?? { id: file.ownerGroupId, name: '' },
    people,
    notes,
    edited: new Set(versions.map((v) => v.noteId)),
    items,
    letterRefs: new Map(letters.map((v) => [v.letter.id, v.letter.letterId])),
  });
}

/** The movement history of a file, oldest first. */
export async function efileHistory(db: DbOrTx, efileId: string) {
  const rows = await db
    .select()
    .from(efileMovements)
    .where(eq(efileMovements.efileId, efileId))
    .orderBy(asc(efileMovements.at), asc(efileMovements.id));
  const people = await peopleById(
    db,
    rows.flatMap((m) => [m.fromUserId, m.toUserId]),
  );
  return rows.map((m) => presentMovement(m, people));
}
