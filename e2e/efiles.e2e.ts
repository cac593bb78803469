import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { journey, seedCast } from './efiles-journey.ts';
import { expectVisible, keepLanguage, signInAs, useBrowser } from './fixtures.ts';
import { apiAs } from './seed.ts';

// e-Files (decisions 107, 112), once in English and once in Hindi: an employee opens a file from a received letter and
// writes a note; the group head edits that draft and adds his own; the director returns it with a note; it goes
// back up along a changed route and the director approves in a final note; the creator closes it. axe clean down to
// moderate at every step; (6) the exported PDF, read with pdftotext, has every note and page in order (with a dialog's list open and a file chosen too); (7) the group head's pendency counts
// the closing; screenshots at 1280 and 390 px.

const browser = useBrowser();

const WORDS = {
  en: {
    n1: 'Please see C/1: the annual fire drill is due. I propose **Friday 11 December**.',
    n1Edited: 'Please see C/1: the annual fire drill is due. I propose **Friday 11 December**, at 10 am.',
    n2: 'Recommended, as in N/1.',
    n3: 'Please give the cost of the drill before I approve.',
    n4: 'The cost, as asked in N/3:',
    n4Table: 'Item | Cost\nSmoke candles | 4,000\nFirst aid | 1,500',
    n5: 'Funds are available under the head.',
    n6: 'Approved as proposed in N/1 and costed in N/4.',
  },
  hi: {
    n1: 'कृपया C/1 देखें: वार्षिक अग्नि अभ्यास देय है। मेरा प्रस्ताव **शुक्रवार 11 दिसंबर** है।',
    n1Edited: 'कृपया C/1 देखें: वार्षिक अग्नि अभ्यास देय है। मेरा प्रस्ताव **शुक्रवार 11 दिसंबर**, सुबह 10 बजे है।',
    n2: 'N/1 के अनुसार अनुशंसित।',
    n3: 'अनुमोदन से पहले कृपया अभ्यास की लागत बताएँ।',
    n4: 'N/3 में माँगी गई लागत:',
    n4Table: 'मद | लागत\nधुआँ मोमबत्तियाँ | 4,000\nप्राथमिक चिकित्सा | 1,500',
    n5: 'शीर्ष के अंतर्गत धन उपलब्ध है।',
    n6: 'N/1 के प्रस्ताव और N/4 की लागत के अनुसार अनुमोदित।',
  },
} as const;

describe.each(['en', 'hi'] as const)('e-Files journey (%s)', (lang) => {
  it('from a received letter to a closed file, noted by three officers along a changed route', async () => {
    const { page } = browser;
    const w = WORDS[lang];
    const cast = await seedCast(randomUUID().slice(0, 6));
    const j = journey(page, lang);
    const { t } = j;

    // (1) The employee puts the received letter in a new file and writes a note.
    await signInAs(page, cast.employee, { to: '/api/health' });
    await keepLanguage(page, lang);
    await page.goto('/dac/inbox');
    await page.getByRole('tab', { name: lang === 'en' ? 'Received' : 'प्राप्त', exact: true }).click();
    await page.getByRole('button', { name: t('putIn.label', { letterId: cast.letter.letterId }) }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('putIn.next'), exact: true })
      .click();
    const create = page.getByRole('dialog', { name: t('create.fromLetterTitle', { letterId: cast.letter.letterId }) });
    await expectVisible(create);
    expect(await create.getByLabel(t('create.subject')).inputValue()).toBe(cast.subject);
    await j.choose(t('create.head'), cast.headCode);
    await j.a11y();
    await create.getByRole('button', { name: t('create.submit') }).click();
    await page.waitForURL(/\/efiles\/[0-9a-f-]{36}$/);
    const fileId = new URL(page.url()).pathname.split('/').pop()!;
    const number = (await apiAs(cast.employee).get<{ number: string }>(`/api/efiles/${fileId}`)).body.number;
    await expectVisible(page.getByRole('heading', { level: 1, name: number }));
    await expectVisible(page.getByRole('heading', { name: new RegExp(`^C/1 — .*${cast.subject}`) }));
    await j.writeNote(w.n1);
    await expectVisible(j.note('N/1').getByText(t('note.draft')));
    await expectVisible(j.note('N/1').getByRole('link', { name: 'C/1' }));
    await j.a11y();
    await j.shot('1-note');
    // Sent up to the group head, the director next on the route; axe with the dialog's list open and a file chosen.
    await page.getByRole('button', { name: t('send.button'), exact: true }).click();
    await j.choose(t('send.to'), cast.head.name);
    await page
      .getByRole('dialog')
      .getByRole('combobox', { name: t('send.route') })
      .fill(cast.director.name.split(' ')[0]!);
    await expectVisible(page.getByRole('option', { name: new RegExp(`^${cast.director.name}`) }));
    await j.a11y();
    await page.getByRole('option', { name: new RegExp(`^${cast.director.name}`) }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('send.submit') })
      .click();
    await expectVisible(page.getByText(t('state.inTransit')));

    // (2) The group head edits the employee's draft and adds his own note; the edit is in N/1's version history.
    await j.open(cast.head, fileId);
    await j.receive();
    await j
      .note('N/1')
      .getByRole('button', { name: t('note.editLabel', { ref: 'N/1' }) })
      .click();
    await j
      .note('N/1')
      .getByLabel(t('editor.text', { n: '1' }))
      .fill(w.n1Edited);
    await j.a11y();
    await j
      .note('N/1')
      .getByRole('button', { name: t('editor.save') })
      .click();
    await expectVisible(j.note('N/1').getByText(lang === 'en' ? 'at 10 am' : 'सुबह 10 बजे', { exact: false }));
    await j
      .note('N/1')
      .getByRole('button', { name: t('note.versionsLabel', { ref: 'N/1' }) })
      .click();
    await expectVisible(j.note('N/1').getByText(cast.head.name, { exact: false }));
    await j.writeNote(w.n2);
    await expectVisible(j.note('N/2'));
    await j.a11y();
    await j.shot('2-head');
    await j.send(number, null); // the director, next on the route

    // (3) The director returns the file with a note asking for the cost.
    await j.open(cast.director, fileId);
    await j.receive();
    await expectVisible(j.note('N/1').getByText(t('note.permanent')));
    await j.writeNote(w.n3);
    await page.getByRole('button', { name: t('return.button') }).click();
    const back = page.getByRole('dialog', { name: t('return.title', { number }) });
    await back.getByLabel(t('return.remarks')).fill(w.n3);
    await j.a11y();
    await back.getByRole('button', { name: t('return.submit') }).click();
    await expectVisible(page.getByText(t('state.inTransit')));

    // (4) Back up along a changed route: the head notes the cost (a table), routes it by finance, then the director.
    await j.open(cast.head, fileId);
    await j.receive();
    await j.writeNote(w.n4, { kind: 'table', text: w.n4Table });
    await expectVisible(j.note('N/4').getByRole('table'));
    await page.getByRole('button', { name: t('route.button') }).click();
    const route = page.getByRole('dialog', { name: t('route.title', { number }) });
    await j.choose(t('route.officers'), cast.finance.name);
    await j.choose(t('route.officers'), cast.director.name);
    await route.getByRole('button', { name: t('route.submit') }).click();
    await expectVisible(page.getByText(`${cast.finance.name} → ${cast.director.name}`));
    await j.a11y();
    await j.shot('4-route');
    await j.send(number, null); // finance, first on the changed route
    await j.open(cast.finance, fileId);
    await j.receive();
    await j.writeNote(w.n5);
    await j.send(number, null); // the director
    await j.open(cast.director, fileId);
    await j.receive();
    await j.writeNote(w.n6);
    await expectVisible(j.note('N/6'));
    await j.a11y();
    await j.shot('4-approved');
    await j.send(number, cast.employee, { remarks: w.n6 });

    // (5) The creator receives it and closes it; every note is permanent, the history has every move.
    await j.open(cast.employee, fileId);
    await j.receive();
    await page.getByRole('button', { name: t('moves.close.button') }).click();
    await expectVisible(page.getByText(t('state.closed'), { exact: true }));
    for (const ref of ['N/1', 'N/2', 'N/3', 'N/4', 'N/5', 'N/6'])
      await expectVisible(j.note(ref).getByText(t('note.permanent')));
    await expectVisible(page.getByRole('cell', { name: t('history.kinds.closed') }));
    await j.a11y();
    await j.shot('5-closed');

    // (6) The export: one PDF with every note in order, then the correspondence page.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: t('actions.export') }).click(),
    ]);
    const pdf = path.join(tmpdir(), `efile-${cast.tag}-${lang}.pdf`);
    await download.saveAs(pdf);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    // Each note where it starts; the correspondence page after them all (the notes cite C/1 before it).
    const positions = [
      ...['N/1', 'N/2', 'N/3', 'N/4', 'N/5', 'N/6'].map((ref) => text.indexOf(ref)),
      text.lastIndexOf('C/1'),
    ];
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    if (lang === 'en') {
      for (const words of ['annual fire drill is due', 'Recommended', 'Smoke candles', 'Approved as proposed'])
        expect(text).toContain(words);
    }
    expect(text).toContain(number);
    await page.goto('/efiles');
    await page.getByRole('tab', { name: t('boxes.closed') }).click();
    await expectVisible(page.getByRole('link', { name: number }));
    await j.a11y();
    await j.shot('my-files');

    // (7) Pendency of e-files under the dak's (decision 121): the group head sees the creator's closing counted.
    await signInAs(page, cast.head, { to: '/api/health' });
    await keepLanguage(page, lang);
    await page.goto('/dac/pendency');
    const efilePendency = page.getByRole('region', { name: t('pendency.title') });
    const row = efilePendency.getByRole('row', { name: new RegExp(cast.employee.name) });
    await expectVisible(row);
    await expectVisible(row.getByRole('cell', { name: '1', exact: true }).first());
    await j.a11y();
    await j.shot('pendency');
  });
});
