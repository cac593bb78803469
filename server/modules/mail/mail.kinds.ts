import type { DakPriority } from '#shared/schemas/letter.ts';

/**
 * What the portal tells people by mail (issue 32 item 2), and the values each message needs. The rows of the mail
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
}
export type MailKind = keyof MailParams;
export const MAIL_KINDS = [
  'account_approved',
  'account_rejected',
  'letter_marked',
  'letter_returned',
  'password_reset',
] as const satisfies readonly MailKind[];

/**
 * The priorities whose marking is mailed at once (issue 32 item 2). A Normal letter's marking waits for the morning
 * digest, which is yet to come: until then it is told by the bell alone.
 */
export const IMMEDIATE_PRIORITIES: readonly DakPriority[] = ['Urgent', 'Most Immediate'];

/** The languages a mail is written in: the portal's two. */
export const MAIL_LANGUAGES = ['en', 'hi'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];
