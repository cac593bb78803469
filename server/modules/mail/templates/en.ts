import { formatDate } from '#shared/format.ts';

import type { NoticeItem } from '../mail.kinds.ts';
import type { MailTemplates } from './index.ts';

/** English mail: the portal's own words, Indian dates ("21 Nov 2026"). */
const ROLES = {
  employee: 'Employee',
  director: 'Director',
  associate_director: 'Associate Director',
  admin: 'Administrator',
} as const;

const dear = (name: string) => `Dear ${name},`;

const on = (date: string | null) => (date ? formatDate(date, date, 'en') : '');

/** One notice as a sentence (a mailed notice's body, a digest's line); a classified letter by its Letter ID alone. */
function noticeLine(n: NoticeItem): string {
  const about = n.title ? ` (${n.title})` : '';
  switch (n.kind) {
    case 'letter_marked':
      return `Letter ${n.ref}${about} was marked to you${n.who ? ` by ${n.who}` : ''}.`;
    case 'letter_returned':
      return `Letter ${n.ref}${about} was sent back to you${n.who ? ` by ${n.who}` : ''}.`;
    case 'letter_due_tomorrow':
      return `Letter ${n.ref}${about}, which you hold, is due tomorrow (${on(n.date)}).`;
    case 'letter_overdue_held':
      return `Letter ${n.ref}${about}, which you hold, is overdue: it was due on ${on(n.date)}.`;
    case 'letter_escalated':
      return `Letter ${n.ref}${about}, held by ${n.who ?? 'an officer'} of your group, is overdue: it was due on ${on(n.date)}.`;
    case 'acknowledgement_requested':
      return `Please acknowledge "${n.ref}" by ${on(n.date)}.`;
    case 'acknowledgement_due':
      return `Reminder: please acknowledge "${n.ref}" by ${on(n.date)}.`;
    case 'acknowledgement_overdue':
      return `"${n.ref}" was to be acknowledged by ${on(n.date)} and is still waiting for you.`;
    case 'close_group_ending':
      return `The close group "${n.ref}" ends on ${on(n.date)}.`;
    case 'registration_received':
      return `${n.ref}${n.title ? ` <${n.title}>` : ''} registered and is waiting for approval.`;
    case 'efile_sent':
      return `File ${n.ref}${about} was sent to you${n.who ? ` by ${n.who}` : ''}.`;
    case 'efile_overdue_held':
      return `File ${n.ref}${about}, which you hold, is overdue: it was due on ${on(n.date)}.`;
    case 'efile_escalated':
      return `File ${n.ref}${about}, held by ${n.who ?? 'an officer'}, is overdue: it was due on ${on(n.date)}.`;
  }
}

const NOTICE_SUBJECTS: Record<NoticeItem['kind'], (n: NoticeItem) => string> = {
  letter_marked: (n) => `Letter marked to you: ${n.ref}`,
  letter_returned: (n) => `Letter returned to you: ${n.ref}`,
  letter_due_tomorrow: (n) => `Letter due tomorrow: ${n.ref}`,
  letter_overdue_held: (n) => `Letter overdue: ${n.ref}`,
  letter_escalated: (n) => `Overdue in your group: ${n.ref}`,
  acknowledgement_requested: () => 'A circular to acknowledge',
  acknowledgement_due: () => 'Reminder: a circular to acknowledge',
  acknowledgement_overdue: () => 'A circular to acknowledge is overdue',
  close_group_ending: (n) => `Close group ending: ${n.ref}`,
  registration_received: () => 'A registration is waiting for approval',
  efile_sent: (n) => `File sent to you: ${n.ref}`,
  efile_overdue_held: (n) => `File overdue: ${n.ref}`,
  efile_escalated: (n) => `Overdue file of your group: ${n.ref}`,
};

export const en: MailTemplates = {
  frame: { footer: 'This message was sent by the Lab Portal. Please do not reply to it.' },

  account_approved: (p, link) => ({
    subject: 'Your Lab Portal account is approved',
    greeting: dear(p.name),
    body: [
      `Your registration on the Lab Portal has been approved. You may now sign in as ${ROLES[p.role]} of ${p.group}.`,
    ],
    action: { label: 'Sign in', url: link },
  }),

  account_rejected: (p) => ({
    subject: 'Your Lab Portal registration was not approved',
    greeting: dear(p.name),
    body: [
      'Your registration on the Lab Portal was not approved.',
      ['Reason', p.reason],
      'If you think this is a mistake, please contact the administrator.',
    ],
  }),

  letter_marked: (p, link) => ({
    subject: `${p.priority} letter marked to you: ${p.letterRef}`,
    greeting: dear(p.name),
    body: [
      `${p.fromName} has marked letter ${p.letterRef} to you, priority ${p.priority}.`,
      ...(p.subject ? [['Subject', p.subject] as [string, string]] : []),
      ...(p.dueDate ? [['Due date', formatDate(p.dueDate, p.dueDate, 'en')] as [string, string]] : []),
      'Please receive it in your inbox.',
    ],
    action: { label: 'Open your inbox', url: link },
  }),

  letter_returned: (p, link) => ({
    subject: `Letter returned to you: ${p.letterRef}`,
    greeting: dear(p.name),
    body: [
      `${p.fromName} has sent letter ${p.letterRef} back to you.`,
      ...(p.subject ? [['Subject', p.subject] as [string, string]] : []),
      ...(p.remarks ? [['Remarks', p.remarks] as [string, string]] : []),
    ],
    action: { label: 'Open your inbox', url: link },
  }),

  notice: (p, link) => ({
    subject: NOTICE_SUBJECTS[p.item.kind](p.item),
    greeting: dear(p.name),
    body: [noticeLine(p.item)],
    action: { label: 'Open the Lab Portal', url: link },
  }),

  digest: (p, link) => ({
    subject: `Your Lab Portal digest: ${p.items.length} ${p.items.length === 1 ? 'item' : 'items'}`,
    greeting: dear(p.name),
    body: ['Since your last digest:', ...p.items.map((n) => `• ${noticeLine(n)}`)],
    action: { label: 'Open the Lab Portal', url: link },
    after: ['You can choose which mail you get, and when, in My Account.'],
  }),

  dispatch: (p) => ({
    subject: `Letter ${p.outwardNumber} from ${p.lab}`,
    greeting: dear(p.name),
    body: [
      `Please find attached letter ${p.outwardNumber} of ${on(p.date)} from ${p.lab}.`,
      ['Subject', p.subject],
      'The attached PDF is digitally signed; any PDF reader can verify its signature.',
    ],
  }),

  password_reset: (p, link) => ({
    subject: 'Reset your Lab Portal password',
    greeting: dear(p.name),
    body: [
      'We were asked to reset the password of your Lab Portal account. To choose a new password, open this link within 30 minutes.',
    ],
    action: { label: 'Choose a new password', url: link },
    after: ['The link works once. If you did not ask for it, ignore this message: your password stays as it is.'],
  }),

  password_elsewhere: (p, link) => ({
    subject: 'Your Lab Portal password',
    greeting: dear(p.name),
    body: [
      p.where === 'directory'
        ? 'We were asked to reset the password of your Lab Portal account. Your account signs in with the lab directory, so the portal keeps no password of yours: change it in the lab directory, or ask its administrator.'
        : "We were asked to reset the password of your Lab Portal account. Your account signs in through single sign-on, so the portal keeps no password of yours: change it with the lab's sign-in service.",
    ],
    action: { label: 'Open the login page', url: link },
    after: ['If you did not ask for this, ignore this message: nothing has changed.'],
  }),
};
