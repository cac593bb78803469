import { formatDate } from '#shared/format.ts';

import type { MailTemplates } from './index.ts';

/** English mail (issue 32): the portal's own words, Indian dates ("21 Nov 2026"). */
const ROLES = {
  employee: 'Employee',
  director: 'Director',
  associate_director: 'Associate Director',
  admin: 'Administrator',
} as const;

const dear = (name: string) => `Dear ${name},`;

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

  password_reset: (p, link) => ({
    subject: 'Reset your Lab Portal password',
    greeting: dear(p.name),
    body: [
      'We were asked to reset the password of your Lab Portal account. To choose a new password, open this link within 30 minutes.',
    ],
    action: { label: 'Choose a new password', url: link },
    after: ['The link works once. If you did not ask for it, ignore this message: your password stays as it is.'],
  }),
};
