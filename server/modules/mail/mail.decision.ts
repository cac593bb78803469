import { type SQL, sql } from 'drizzle-orm';

import { ROLES } from '#shared/constants.ts';
import {
  MAIL_CHOICES,
  MAIL_PREFERENCE_DEFAULTS,
  type MailChoice,
  type MailPreferenceKind,
} from '#shared/schemas/mail-preferences.ts';
import type { NotificationKind } from '#shared/schemas/notification.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { hasRoleSql } from '#server/lib/roles.policy.ts';
import { mailChoicesOf } from '#server/modules/users/users.queries.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { receivesMailKind } from './mail.policy.ts';

/**
 * "Mail now, in the digest, or not at all" (decisions 081, 104): the one decision. `mailDecision` is its definition;
 * `noticeMailOf` is what a bell's notice records of it (`notifications.mail`), `noticeMailSql` the same as an SQL
 * expression for notices made in SQL, tabulated from `noticeMailOf` over every role and stored choice, and queueMail
 * asks `mailDecision` before writing a letter service's own mail.
 */

/** What happened, as the mail sees it: a notice's kind, and for a marking whether its letter is urgent. */
export interface MailEvent {
  kind: NotificationKind;
  /** A marking of an Urgent or Most Immediate letter (IMMEDIATE_PRIORITIES). */
  urgent?: boolean;
}

/** Which choice governs each kind of notice; null: the bell alone ("a letter you marked is overdue"). */
export const NOTICE_PREFERENCE: Record<NotificationKind, MailPreferenceKind | null> = {
  letter_marked: 'letter_marked',
  letter_returned: 'letter_returned',
  letter_overdue: null,
  acknowledgement_due: 'acknowledgement',
  acknowledgement_overdue: 'acknowledgement',
  letter_due_tomorrow: 'letter_due',
  letter_overdue_held: 'letter_overdue',
  letter_escalated: 'letter_overdue',
  acknowledgement_requested: 'acknowledgement',
  close_group_ending: 'close_group_ending',
  registration_received: 'registration_received',
  sso_link_requested: null,
  directory_mail_collision: null,
  // Decision 111: e-files sent, returned or copied to you, and overdue ones, by one choice of their own.
  efile_sent: 'efile',
  efile_overdue_held: 'efile',
  efile_escalated: 'efile',
  // Decision 115: the bell alone; the audit trail keeps the detail.
  malware_detected: null,
};

/** The choice that governs an event: a marking's is the urgent one for an urgent letter. */
const governingChoice = (event: MailEvent): MailPreferenceKind | null =>
  event.kind === 'letter_marked' && event.urgent ? 'letter_marked_urgent' : NOTICE_PREFERENCE[event.kind];

/** A person as the decision reads them: their role and their stored choices (users.mail_preferences). */
export type Chooser = { role: Actor['role']; mailPreferences: Partial<Record<string, unknown>> };

const isChoice = (v: unknown): v is MailChoice => (MAIL_CHOICES as readonly unknown[]).includes(v);

/** This person's choice for a kind: off for a kind they do not receive, else theirs, else the kind's default. */
export function choiceOf(person: Chooser, kind: MailPreferenceKind): MailChoice {
  if (!receivesMailKind(person, kind)) return 'off';
  const stored = person.mailPreferences[kind];
  return isChoice(stored) ? stored : MAIL_PREFERENCE_DEFAULTS[kind];
}

/** The decision: is this event mailed to this person now, kept for their morning digest, or not mailed (null)? */
export function mailDecision(person: Chooser, event: MailEvent): 'now' | 'digest' | null {
  const governing = governingChoice(event);
  if (!governing) return null;
  const choice = choiceOf(person, governing);
  return choice === 'off' ? null : choice;
}

/**
 * The immediate mails of a marking of an urgent letter and of a letter sent back are written by the letter services
 * themselves (queueMail, with their own words), so their notices are never mailed 'now'; they still go to the digest.
 */
const mailedByService = (event: MailEvent) =>
  event.kind === 'letter_returned' || (event.kind === 'letter_marked' && !!event.urgent);

/** What a notice of this event records in `notifications.mail` for this person. */
export function noticeMailOf(person: Chooser, event: MailEvent): 'now' | 'digest' | null {
  const decided = mailDecision(person, event);
  return decided === 'now' && mailedByService(event) ? null : decided;
}

/** The decision for each of these people (by user id; a person not found is not mailed). */
export async function noticeMailFor(tx: DbOrTx, userIds: string[], events: MailEvent[]) {
  // Bell-only kinds (the sweep's "a letter you marked is overdue") need nobody's choices.
  if (!userIds.length || userIds.every((_, i) => !governingChoice(events[i] ?? events[0]!)))
    return userIds.map(() => null);
  const rows = await mailChoicesOf(tx, userIds);
  const people = new Map(rows.map((r) => [r.id, r] as const));
  return userIds.map((id, i) => {
    const person = people.get(id);
    return person ? noticeMailOf(person, events[i] ?? events[0]!) : null;
  });
}

/** Whether a letter service's own mail of this event goes now to this person (queueMail). */
export async function mailsNow(tx: DbOrTx, userId: string, event: MailEvent): Promise<boolean> {
  const [person] = await mailChoicesOf(tx, [userId]);
  return person !== undefined && mailDecision(person, event) === 'now';
}

type Outcome = 'now' | 'digest' | null;
const literal = (o: Outcome): SQL => (o === 'now' ? sql`'now'` : o === 'digest' ? sql`'digest'` : sql`null`);
/** What may be stored for a kind; `undefined` stands for nothing stored. */
const STORED = [...MAIL_CHOICES, undefined] as const;

/**
 * `noticeMailOf` as an SQL expression over a users row (`role`, `prefs`: its role and mail_preferences columns), for
 * notices written by one statement (notifyEach). It is not written by hand: the outcome of every role and every stored
 * value is asked of `noticeMailOf` and written out as a `case`, so the two cannot differ.
 */
export function noticeMailSql(kind: NotificationKind, user: { role: SQL; prefs: SQL }): SQL {
  const governing = governingChoice({ kind });
  const tableOf = (role: Actor['role']) =>
    STORED.map((stored) =>
      noticeMailOf({ role, mailPreferences: stored === undefined ? {} : { [governing ?? kind]: stored } }, { kind }),
    );
  const byStored = (outcomes: Outcome[]): SQL => {
    if (outcomes.every((o) => o === outcomes[0])) return literal(outcomes[0]!);
    const arms = MAIL_CHOICES.map((choice, i) => sql`when ${choice} then ${literal(outcomes[i]!)}`);
    return sql`(case ${user.prefs} ->> ${governing} ${sql.join(arms, sql` `)} else ${literal(outcomes.at(-1)!)} end)`;
  };
  // Roles with the same outcomes share an arm; the last group is the `else`.
  const groups = new Map<string, { roles: Actor['role'][]; outcomes: Outcome[] }>();
  for (const role of ROLES) {
    const outcomes = tableOf(role);
    const key = JSON.stringify(outcomes);
    const group = groups.get(key) ?? { roles: [], outcomes };
    group.roles.push(role);
    groups.set(key, group);
  }
  const list = [...groups.values()];
  if (list.length === 1) return byStored(list[0]!.outcomes);
  const arms = list.slice(0, -1).map(({ roles, outcomes }) => {
    const holds = sql.join(
      roles.map((r) => hasRoleSql(user.role, r)),
      sql` or `,
    );
    return sql`when ${holds} then ${byStored(outcomes)}`;
  });
  return sql`(case ${sql.join(arms, sql` `)} else ${byStored(list.at(-1)!.outcomes)} end)`;
}
