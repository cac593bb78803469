import type { DbOrTx } from '#server/db/client.ts';
import type { NotificationRow } from '#server/db/schema/index.ts';
import { acknowledgementsByIds } from '#server/modules/acknowledgements/acknowledgements.queries.ts';
import { closeGroupsByIds } from '#server/modules/close-groups/close-groups.queries.ts';
import { efileMovementsByIds, efilesByIds } from '#server/modules/efiles/efiles.queries.ts';
import { lettersByIds, movementsByIds } from '#server/modules/letters/letters.queries.ts';
import { namesByIds } from '#server/modules/users/users.queries.ts';

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
  // each through its owner's functions (decision 103)
  const names = new Map((await namesByIds(db, actorIds)).map((u) => [u.id, u.name] as const));
  const letterOf = new Map((await lettersByIds(db, ids('letter'))).map((l) => [l.id, l]));
  const moveIds = rows.filter((r) => r.subjectType === 'letter').map((r) => r.sourceId);
  const dueOf = new Map((await movementsByIds(db, moveIds)).map((m) => [m.id, m.dueDate] as const));
  const ackOf = new Map((await acknowledgementsByIds(db, ids('acknowledgement'))).map((a) => [a.id, a]));
  const groupOf = new Map((await closeGroupsByIds(db, ids('close_group'))).map((g) => [g.id, g] as const));
  const applicantOf = new Map((await namesByIds(db, ids('user'))).map((u) => [u.id, u] as const));
  const efileOf = new Map((await efilesByIds(db, ids('efile'))).map((f) => [f.id, f] as const));
  const fileMoves = rows.filter((r) => r.subjectType === 'efile').map((r) => r.sourceId);
  const fileDueOf = new Map((await efileMovementsByIds(db, fileMoves)).map((m) => [m.id, m.dueDate] as const));

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
    } else if (r.subjectType === 'efile') {
      // A file above Unclassified by its number alone, as a classified letter by its Letter ID (decision 111).
      const f = efileOf.get(r.subjectId);
      const title = f?.classification === 'Unclassified' ? f.subject : null;
      if (f) out.set(r.id, { kind, ref: f.number, title, who, date: fileDueOf.get(r.sourceId) ?? null });
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
  efile_sent: '/efiles',
  efile_overdue_held: '/efiles',
  efile_escalated: '/efiles',
};

/** Notices no older than this many days are mailed: a backlog from a time the portal sent no mail is not. */
export const NOTICE_MAIL_DAYS = 3;
