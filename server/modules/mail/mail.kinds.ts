import type { DakPriority } from '#shared/schemas/letter.ts';

/**
 * What the portal tells people by mail (decision 081), and the values each message needs. The rows of the mail
 * outbox carry a kind and its values; the templates (templates/en.ts, templates/hi.ts) word them. Nothing here is
 * classified: a Confidential or Secret letter is named by its Letter ID alone (`subject` and `remarks` are null).
 */
export interface MailParams {
  /** An applicant approved (mandatory, immediately). */
  account_approved: { name: string; role: 'employee' | 'director' | 'associate_director' | 'admin'; group: string };
  /** An applicant refused, with the admin's reason (mandatory, immediately). */
  account_rejected: { name: string; reason: string };
  /** A letter marked to an officer: immediately for Urgent and Most Immediate (IMMEDIATE_PRIORITIES). */
  letter_marked: {
    name: string;
    letterRef: string;
    subject: string | null;
    priority: DakPriority;
    dueDate: string | null;
    fromName: string;
  };
  /** A letter sent back to whoever marked it (immediately). */
  letter_returned: {
    name: string;
    letterRef: string;
    subject: string | null;
    remarks: string | null;
    fromName: string;
  };
  /** A "forgot password" link (mandatory, on request): `resetId` names the token row; the token is made when sent. */
  password_reset: { name: string; resetId: string };
  /**
   * "Forgot password" for an account whose password the portal does not keep (decision 094): where it lives, the lab's
   * directory or its single sign-on, said in the mail and never on the screen.
   */
  password_elsewhere: { name: string; where: 'directory' | 'sso' };
  /** One notice of the bell, mailed at once by the person's choice (decision 081). */
  notice: { name: string; item: NoticeItem };
  /** The morning digest (DIGEST_HOUR): every notice kept for it since the last one (decision 082). */
  digest: { name: string; items: NoticeItem[] };
  /**
   * A signed letter dispatched by email (decision 120), to an address outside the portal: the signed PDF is attached
   * (read from storage when the mail is sent), the outward number and date in the message.
   */
  dispatch: {
    name: string;
    outwardNumber: string;
    subject: string;
    date: string;
    lab: string;
    attachment: MailAttachment;
  };
}

/** A stored file a mail carries: where it is in storage and the name it goes out under. */
export interface MailAttachment {
  area: string;
  storedName: string;
  filename: string;
}

/** The notices a mail tells of (the bell's kinds, NotificationKind, less the bell-only "a letter you marked is overdue"). */
export type NoticeKind =
  | 'letter_marked'
  | 'letter_returned'
  | 'letter_due_tomorrow'
  | 'letter_overdue_held'
  | 'letter_escalated'
  | 'acknowledgement_requested'
  | 'acknowledgement_due'
  | 'acknowledgement_overdue'
  | 'close_group_ending'
  | 'registration_received'
  | 'efile_sent'
  | 'efile_overdue_held'
  | 'efile_escalated';

/**
 * A notice as a mail may word it: `ref` names it (a Letter ID, a document, a close group, an applicant), `title` is
 * its subject, null for a Confidential or Secret letter; `who` is who marked or holds it; `date` a due or end date.
 */
export interface NoticeItem {
  kind: NoticeKind;
  ref: string;
  title: string | null;
  who: string | null;
  date: string | null;
}
export type MailKind = keyof MailParams;
export const MAIL_KINDS = [
  'account_approved',
  'account_rejected',
  'letter_marked',
  'letter_returned',
  'password_reset',
  'password_elsewhere',
  'notice',
  'digest',
  'dispatch',
] as const satisfies readonly MailKind[];

/**
 * The priorities whose marking is mailed at once (decision 081). A Normal letter's marking waits for the morning
 * digest, which is yet to come: until then it is told by the bell alone.
 */
export const IMMEDIATE_PRIORITIES: readonly DakPriority[] = ['Urgent', 'Most Immediate'];

/** The languages a mail is written in: the portal's two. */
export const MAIL_LANGUAGES = ['en', 'hi'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];
