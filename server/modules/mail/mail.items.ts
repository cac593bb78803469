import { eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';

import type { DbOrTx } from '#server/db/client.ts';
import {
  acknowledgementRequests,
  acknowledgements,
  closeGroups,
  letterMovements,
  letters,
  type NotificationRow,
  users,
} from '#server/db/schema/index.ts';
import { documentColumns, withDocument } from '#server/modules/acknowledgements/acknowledgements.documents.ts';

import type { NoticeItem, NoticeKind } from './mail.kinds.ts';

/**
 * Notices as a mail may word them (decision 081): read fresh when the mail is written, each by its subject. A
 * Confidential or Secret letter is named by its Letter ID alone (no subject, no remarks). A notice whose subject is gone
 * is left out.
 */
export async function noticeItems(db: DbOrTx, rows: NotificationRow[]): Promise<Map<string, NoticeItem>> {
  const out = new Map<string, NoticeItem>();
  const ids = (type: string) => [...new Set(rows.filter((r) => r.subjectType === type).map((r) => r.subjectId))];
  const actorIds = [...new Set(rows.flatMap((r) => (r.actorId ? [r.actorId] : [])))];
  const names = new Map(
    actorIds.length
      ? (await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, actorIds))).map(
          (u) => [u.id, u.name] as const,
        )
      : [],
  );

  const letterIds = ids('letter');
  const letterRows = letterIds.length
    ? await db
        .select({ id: letters.id, ref: letters.letterId, sub: letters.letterSub, cls: letters.classification })
        .from(letters)
        .where(inArray(letters.id, letterIds))
    : [];
  const letterOf = new Map(letterRows.map((l) => [l.id, l]));
  const moveIds = rows.filter((r) => r.subjectType === 'letter').map((r) => r.sourceId);
  const dueOf = new Map(
    moveIds.length
      ? (
          await db
            .select({ id: letterMovements.id, due: letterMovements.dueDate })
            .from(letterMovements)
            .where(inArray(letterMovements.id, moveIds))
        ).map((m) => [m.id, m.due] as const)
      : [],
  );

  const ackIds = ids('acknowledgement');
  const ackRows = ackIds.length
    ? await withDocument(
        db
          .select({ id: acknowledgements.id, dueOn: acknowledgements.dueOn, name: documentColumns.name })
          .from(acknowledgements)
          .innerJoin(acknowledgementRequests, eq(acknowledgementRequests.id, acknowledgements.requestId)),
      ).where(inArray(acknowledgements.id, ackIds))
    : [];
  const ackOf = new Map(ackRows.map((a) => [a.id, a]));

  const groupIds = ids('close_group');
  const groupOf = new Map(
    groupIds.length
      ? (
          await db
            .select({ id: closeGroups.id, name: closeGroups.groupName, to: closeGroups.durationTo })
            .from(closeGroups)
            .where(inArray(closeGroups.id, groupIds))
        ).map((g) => [g.id, g] as const)
      : [],
  );

  const applicant = alias(users, 'applicant');
  const userIds = ids('user');
  const applicantOf = new Map(
    userIds.length
      ? (
          await db
            .select({ id: applicant.id, name: applicant.name, email: applicant.email })
            .from(applicant)
            .where(inArray(applicant.id, userIds))
        ).map((u) => [u.id, u] as const)
      : [],
  );

  for (const r of rows) {
    const kind = r.kind as NoticeKind;
    const who = r.actorId ? (names.get(r.actorId) ?? null) : null;
    if (r.subjectType === 'letter') {
      const l = letterOf.get(r.subjectId);
      if (!l) continue;
      out.set(r.id, {
        kind,
        ref: l.ref,
        title: l.cls === 'Normal' ? l.sub : null,
        who,
        date: dueOf.get(r.sourceId) ?? null,
      });
    } else if (r.subjectType === 'acknowledgement') {
      const a = ackOf.get(r.subjectId);
      if (a) out.set(r.id, { kind, ref: a.name, title: null, who, date: a.dueOn });
    } else if (r.subjectType === 'close_group') {
      const g = groupOf.get(r.subjectId);
      if (g) out.set(r.id, { kind, ref: g.name, title: null, who: null, date: g.to });
    } else if (r.subjectType === 'user') {
      const u = applicantOf.get(r.subjectId);
      if (u) out.set(r.id, { kind, ref: u.name, title: u.email, who: null, date: null });
    }
  }
  return out;
}

/** The screen a notice's mail links to (web/lib/paths.ts), after PORTAL_URL. */
export const NOTICE_LINKS: Record<NoticeKind, string> = {
  letter_marked: '/dac/inbox',
  letter_returned: '/dac/inbox',
  letter_due_tomorrow: '/dac/inbox',
  letter_overdue_held: '/dac/inbox',
  letter_escalated: '/dac/pendency',
  acknowledgement_requested: '/acknowledgements',
  acknowledgement_due: '/acknowledgements',
  acknowledgement_overdue: '/acknowledgements',
  close_group_ending: '/closeGroup',
  registration_received: '/admin/approval',
};

/** Notices no older than this many days are mailed: a backlog from a time the portal sent no mail is not. */
export const NOTICE_MAIL_DAYS = 3;
