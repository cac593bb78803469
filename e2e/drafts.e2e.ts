import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { screenshot } from './a11y.ts';
import { dispatch, mailSubject, TEXTS as DISPATCH_TEXTS } from './dispatch-steps.ts';
import { fill, journey } from './efiles-journey.ts';
import { baseURL, expectHidden, expectVisible, groupIds, useBrowser } from './fixtures.ts';
import { waitForMail } from './mail.ts';
import { apiAs, createApprovedUser, registrationFor, type SeededUser, signedInAdmin } from './seed.ts';

// Drafts for approval (decision 122), once in English and once in Hindi: (1) an employee writes draft v1 in a file and
// puts it up to the group head; (2) the group head asks for a change, and the author makes v2, compared with v1;
// (3) the director approves and signs it, which files the signed PDF as C/1 (pdfsig: valid, ETSI.CAdES.detached);
// (4) the director dispatches it by email (the mail at the run's SMTP server, its PDF valid); (5) the register shows it.
// axe clean down to moderate at every step; screenshots at 1280 and 390 px.

const browser = useBrowser();
const localeDir = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'web', 'i18n', 'locales');

const WORDS = {
  en: {
    title: 'Letter to the Chief Fire Officer',
    v1: 'The laboratory requests a fire safety audit of Building 4 in the week of 14 December.',
    change: 'Please ask for the week of 21 December.',
    v2: 'The laboratory requests a fire safety audit of Building 4 in the week of 21 December.',
    recipient: 'The Chief Fire Officer',
  },
  hi: {
    title: 'मुख्य अग्निशमन अधिकारी को पत्र',
    v1: 'प्रयोगशाला 14 दिसंबर के सप्ताह में भवन 4 के अग्नि सुरक्षा ऑडिट का अनुरोध करती है।',
    change: 'कृपया 21 दिसंबर का सप्ताह माँगें।',
    v2: 'प्रयोगशाला 21 दिसंबर के सप्ताह में भवन 4 के अग्नि सुरक्षा ऑडिट का अनुरोध करती है।',
    recipient: 'मुख्य अग्निशमन अधिकारी',
  },
} as const;

const person = (role: 'employee' | 'associate_director' | 'director', name: string) =>
  createApprovedUser(role, groupIds[0], { personalDetails: { ...registrationFor().personalDetails, name } });

async function seedFile(tag: string) {
  const admin = await signedInAdmin();
  const headCode = `DFA-${tag}`.toUpperCase();
  const head = await apiAs(admin).post<{ _id: string }>('/api/efiles/heads', { code: headCode, name: `Audits ${tag}` });
  expect(head.status).toBe(201);
  const [author, gh, director] = await Promise.all([
    person('employee', `Asha Author ${tag}`),
    person('associate_director', `Meena Head ${tag}`),
    person('director', `Sunita Director ${tag}`),
  ]);
  const file = await apiAs(author!).post<{ _id: string; number: string }>('/api/efiles', {
    subject: `Fire safety audit ${tag}`,
    headId: head.body._id,
  });
  expect(file.status).toBe(201);
  return { author: author!, gh: gh!, director: director!, file: file.body };
}

/** The signed PDF, fetched as its reader would, and pdfsig's report of it. */
async function pdfsigOf(who: SeededUser, url: string): Promise<string> {
  const res = await fetch(new URL(url, baseURL), { headers: { Authorization: `Bearer ${who.token}` } });
  expect(res.status).toBe(200);
  const file = path.join(tmpdir(), `draft-${randomUUID()}.pdf`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return execFileSync('pdfsig', [file], { encoding: 'utf8' });
}

describe.each(['en', 'hi'] as const)('drafts for approval (%s)', (lang) => {
  it('draft v1, changes asked by the group head, v2, approved and signed by the director, dispatched, in the register', async () => {
    const { page } = browser;
    const w = WORDS[lang];
    const tag = randomUUID().slice(0, 6);
    const cast = await seedFile(tag);
    const fileId = cast.file._id;
    const j = journey(page, lang);
    const D = JSON.parse(readFileSync(path.join(localeDir, lang, 'drafts.json'), 'utf8')) as Record<string, never>;
    const d = (key: string, values?: Record<string, string>) =>
      fill(String(key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], D)), values);
    const card = () => page.getByRole('article').filter({ has: page.getByRole('heading', { name: /^D\/1 — / }) });
    const shot = async (name: string) => {
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `drafts-${name}-${lang}`);
    };

    // (1) The author writes v1 and puts it up to the group head.
    await j.open(cast.author, fileId);
    await expectVisible(page.getByRole('heading', { level: 2, name: d('title') }));
    await page.getByRole('button', { name: d('new.button') }).click();
    await page.getByRole('textbox', { name: d('new.titleLabel') }).fill(w.title);
    await page.getByLabel(j.t('editor.text', { n: '1' })).fill(w.v1);
    await j.a11y();
    await page.getByRole('button', { name: j.t('editor.save') }).click();
    await expectVisible(card());
    await expectVisible(card().getByText(d('state.draft'), { exact: true }));
    await j.a11y();
    await shot('1-v1');
    await card()
      .getByRole('button', { name: d('actions.putUp') })
      .click();
    const up = page.getByRole('dialog', { name: d('putUp.title', { ref: 'D/1' }) });
    await expectVisible(up);
    await j.choose(d('putUp.to'), cast.gh.name);
    await j.a11y();
    await up.getByRole('button', { name: d('putUp.submit') }).click();
    await expectHidden(up);
    await expectVisible(card().getByText(d('state.put_up'), { exact: true }));

    // (2) The group head asks for a change; the file goes back to the author, who makes v2.
    await j.open(cast.gh, fileId);
    await j.receive();
    await card()
      .getByRole('button', { name: d('actions.askChanges') })
      .click();
    const ask = page.getByRole('dialog', { name: d('changes.title', { ref: 'D/1' }) });
    await ask.getByLabel(d('changes.note')).fill(w.change);
    await j.a11y();
    await shot('2-ask-changes');
    await ask.getByRole('button', { name: d('changes.submit') }).click();
    await expectHidden(ask);
    await expectVisible(card().getByText(d('state.changes_asked'), { exact: true }));

    await j.open(cast.author, fileId);
    await j.receive();
    await expectVisible(card().getByText(w.change));
    await card()
      .getByRole('button', { name: d('actions.edit') })
      .click();
    await card()
      .getByLabel(j.t('editor.text', { n: '1' }))
      .fill(w.v2);
    await card()
      .getByRole('button', { name: j.t('editor.save') })
      .click();
    await expectVisible(card().getByText(/^v2/));
    await card()
      .getByRole('button', { name: d('version.compareLabel', { ref: 'D/1 v2', before: '1' }) })
      .click();
    const diff = card().getByRole('region', { name: d('diff.label', { version: '2', against: '1' }) });
    await expectVisible(diff.locator('ins', { hasText: '21' }));
    await expectVisible(diff.locator('del', { hasText: '14' }));
    await j.a11y();
    await shot('3-v2-diff');
    await card()
      .getByRole('button', { name: d('actions.putUp') })
      .click();
    await j.choose(d('putUp.to'), cast.director.name);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: d('putUp.submit') })
      .click();
    await expectHidden(page.getByRole('dialog'));

    // (3) The director approves and signs: the signed PDF is C/1 on the correspondence side.
    await j.open(cast.director, fileId);
    await j.receive();
    await card()
      .getByRole('button', { name: d('actions.approve') })
      .click();
    const approve = page.getByRole('dialog', { name: d('approve.title', { ref: 'D/1' }) });
    await j.a11y();
    await approve.getByRole('button', { name: d('approve.submit') }).click();
    await expectHidden(approve, 60_000);
    await expectVisible(card().getByText(d('state.approved'), { exact: true }));
    await expectVisible(page.getByRole('heading', { name: /^C\/1 — / }));
    await j.a11y();
    await shot('4-approved');
    const drafts = await apiAs(cast.director).get<{ item: { fileUrl: string } }[]>(`/api/efiles/${fileId}/drafts`);
    const report = await pdfsigOf(cast.director, drafts.body[0]!.item.fileUrl);
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Signer Certificate Common Name: E2E Lab Seal');

    // (4) The director, holding the file, dispatches the signed letter by email: it reaches the run's SMTP server with
    // the signed PDF attached, valid for pdfsig. (By post: e2e/dispatch.e2e.ts, whose register shows both modes.)
    const to = `cfo-${tag}@fire.example`;
    await dispatch(page, lang, 'C/1', 'email', { name: w.recipient, where: to });
    const [sent] = (
      await apiAs(cast.director).get<{ outwardNumber: string; mode: string }[]>(`/api/efiles/${fileId}/dispatches`)
    ).body;
    expect(sent?.mode).toBe('email');
    await expectVisible(page.getByText(sent!.outwardNumber, { exact: false }).first());
    await j.a11y();
    await shot('5-dispatched');
    const mail = await waitForMail(to, await mailSubject(cast.director, sent!.outwardNumber));
    const attached = path.join(tmpdir(), `draft-mail-${tag}.pdf`);
    writeFileSync(attached, Buffer.from(mail.attachments![0]!.base64, 'base64'));
    expect(execFileSync('pdfsig', [attached], { encoding: 'utf8' })).toContain('Signature is Valid.');

    // (5) The dispatch register shows it, found by the tag in its file's subject.
    const R = DISPATCH_TEXTS[lang].d.register;
    await page.goto('/dispatch-register');
    await expectVisible(page.getByRole('heading', { level: 1, name: R.title }));
    await page.getByRole('textbox', { name: R.search }).fill(tag);
    await expectVisible(page.getByRole('cell', { name: sent!.outwardNumber, exact: true }));
    await j.a11y();
    await shot('6-register');
  });
});
