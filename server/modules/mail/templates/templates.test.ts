import { describe, expect, it } from 'vitest';

import { MAIL_KINDS, type MailKind, type MailParams } from '../mail.kinds.ts';
import { renderMail } from './index.ts';

/** One message of every kind, with values that are plainly not words of either language. */
const SAMPLES: { [K in MailKind]: MailParams[K] } = {
  account_approved: { name: 'Q1', role: 'associate_director', group: 'Q2' },
  account_rejected: { name: 'Q1', reason: 'Q3' },
  letter_marked: {
    name: 'Q1',
    letterRef: 'Q4/2026/7',
    subject: 'Q5',
    priority: 'Most Immediate',
    dueDate: '2026-11-21',
    fromName: 'Q6',
  },
  letter_returned: { name: 'Q1', letterRef: 'Q4/2026/7', subject: 'Q5', remarks: 'Q7', fromName: 'Q6' },
  password_reset: { name: 'Q1', resetId: '00000000-0000-4000-8000-000000000000' },
  password_elsewhere: { name: 'Q1', where: 'directory' },
  notice: {
    name: 'Q1',
    item: { kind: 'letter_escalated', ref: 'Q4/2026/7', title: 'Q5', who: 'Q6', date: '2026-11-21' },
  },
  digest: {
    name: 'Q1',
    items: (
      [
        'letter_marked',
        'letter_returned',
        'letter_due_tomorrow',
        'letter_overdue_held',
        'letter_escalated',
        'acknowledgement_requested',
        'acknowledgement_due',
        'acknowledgement_overdue',
        'close_group_ending',
        'registration_received',
      ] as const
    ).map((kind) => ({ kind, ref: 'Q4/2026/7', title: 'Q5', who: 'Q6', date: '2026-11-21' })),
  },
  dispatch: {
    name: 'Q1',
    outwardNumber: 'Q4/2026/7',
    subject: 'Q5',
    date: '2026-11-21',
    lab: 'Q6',
    attachment: { area: 'efiles', storedName: '00000000-0000-4000-8000-000000000000', filename: 'Q7.pdf' },
  },
};
const LINK = 'https://portal.lab.example/somewhere?token=Q8';

describe('the mail templates', () => {
  it.each(MAIL_KINDS)('write %s wholly in Hindi, with a plain-text part and an HTML part', (kind) => {
    const mail = renderMail(kind, SAMPLES[kind] as never, 'hi', LINK);
    // Take away the values and the link: what is left is the template's own words, none of them English.
    const own = (text: string) => text.replace(LINK, '').replace(/Q\d(\/2026\/7)?/g, '');
    for (const part of [mail.subject, mail.text]) {
      expect(own(part), part).toMatch(/[\u0900-\u097F]/);
      expect(own(part), part).not.toMatch(/[A-Za-z]{2,}/);
    }
    expect(mail.html).toContain('<html lang="hi">');
    expect(own(mail.html.replace(/<[^>]+>/g, ' ').replace(/&\w+;/g, ''))).not.toMatch(/[A-Za-z]{2,}/);
  });

  it.each(MAIL_KINDS)('write %s in English, with the link in both parts where there is one', (kind) => {
    const mail = renderMail(kind, SAMPLES[kind] as never, 'en', LINK);
    expect(mail.subject).toMatch(/[A-Za-z]/);
    expect(mail.text).toMatch(/^Dear Q1,\n\n/);
    expect(mail.html).toContain('<html lang="en">');
    // A dispatched letter goes to an address outside the portal: it links nowhere.
    if (kind !== 'account_rejected' && kind !== 'dispatch') {
      expect(mail.text).toContain(`\n${LINK}\n`);
      expect(mail.html).toContain(`href="${LINK}"`);
    }
  });

  it('writes dates the Indian way in each language', () => {
    expect(renderMail('letter_marked', SAMPLES.letter_marked, 'en', LINK).text).toContain('Due date: 21 Nov 2026');
    expect(renderMail('letter_marked', SAMPLES.letter_marked, 'hi', LINK).text).toContain('नियत तिथि: 21 नव॰ 2026');
  });

  it('escapes what people typed in the HTML part', () => {
    const mail = renderMail('account_rejected', { name: '<b>Asha</b>', reason: 'a "b" & <script>' }, 'en', LINK);
    expect(mail.html).toContain('Dear &lt;b&gt;Asha&lt;/b&gt;,');
    expect(mail.html).toContain('a &quot;b&quot; &amp; &lt;script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.text).toContain('Reason: a "b" & <script>');
  });

  it('leaves out what a classified letter may not say', () => {
    const mail = renderMail(
      'letter_returned',
      { ...SAMPLES.letter_returned, subject: null, remarks: null },
      'en',
      LINK,
    );
    expect(mail.text).not.toContain('Subject:');
    expect(mail.text).not.toContain('Remarks:');
  });
});
