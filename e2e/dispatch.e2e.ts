import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { signingConfig } from '#server/config/signing.ts';
import { sealSigner } from '#server/modules/signatures/seal.ts';
import { sharedSigningThread, signPdf } from '#server/modules/signatures/sign-pdf.ts';
import { pdfWithPages } from '#server/test/documents.ts';
import { makeTestCertificates, type TestCertificates } from '#server/test/signer-helper.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { dispatch, mailSubject, TEXTS } from './dispatch-steps.ts';
import { expectVisible, groupIds, keepLanguage, signInAs, useBrowser } from './fixtures.ts';
import { waitForMail } from './mail.ts';
import { apiAs, createApprovedUser, type SeededUser, signedInAdmin } from './seed.ts';

// The dispatch register (decision 120) and the signature panel (decision 123), in English and in Hindi: the file's
// holder sees a sealed letter's signature valid and trusted, dispatches one letter by post and one by email (the mail
// reaches the run's SMTP server with the signed PDF, which pdfsig reports valid), and the register shows both. axe clean
// down to moderate; screenshots at 1280 and 390 px.

const browser = useBrowser();
let certs: TestCertificates;
beforeAll(() => {
  certs = makeTestCertificates('E2E Lab Seal');
});
afterAll(async () => {
  certs?.remove();
  await sharedSigningThread().close();
});

/** A file of `holder`'s holding two letters sealed by the test seal (C/1 and C/2); the seal's root trusted. */
async function seedFile(holder: SeededUser, tag: string) {
  const admin = await signedInAdmin();
  const head = await apiAs(admin).post<{ _id: string }>('/api/efiles/heads', {
    code: `DS-${tag}`.toUpperCase(),
    name: `Dispatch ${tag}`,
  });
  expect(head.status).toBe(201);
  const trust = await apiAs(admin).post('/admin/trusted-roots', { label: `E2E root ${tag}`, pem: certs.rootPem });
  expect([201, 409]).toContain(trust.status);
  const file = await apiAs(holder).post<{ _id: string; number: string }>('/api/efiles', {
    subject: `Magazine licence ${tag}`,
    headId: head.body._id,
  });
  expect(file.status).toBe(201);
  const seal = signingConfig({ SIGNING_P12: certs.p12Path, SIGNING_P12_PASSWORD: certs.p12Password })!;
  for (const text of [`Letter to the Controller ${tag}`, `Copy to the District Magistrate ${tag}`]) {
    const signed = await signPdf(pdfWithPages([text]), sealSigner(seal), {
      name: holder.name,
      designation: 'Scientist E',
      reason: 'Approved',
      location: 'E2E Lab',
      contactInfo: holder.email,
    });
    const form = new FormData();
    form.set('document', new Blob([Buffer.from(signed)], { type: 'application/pdf' }), `${text}.pdf`);
    expect((await apiAs(holder).post(`/api/efiles/${file.body._id}/items`, form)).status).toBe(201);
  }
  return file.body;
}

describe.each(['en', 'hi'] as const)('dispatch register (%s)', (lang) => {
  it('shows a sealed letter valid, dispatches it by post and by email, and the register lists both', async () => {
    const { page } = browser;
    const { d: t, s } = TEXTS[lang];
    const tag = randomUUID().slice(0, 6);
    const holder = await createApprovedUser('employee', groupIds[0]);
    const file = await seedFile(holder, tag);
    await signInAs(page, holder, { to: '/api/health' });
    await keepLanguage(page, lang);
    await page.goto(`/efiles/${file._id}`);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);

    // The signature panel: the seal valid, trusted, not changed since.
    await expectVisible(page.getByRole('heading', { name: s.panel.title }).first());
    await expectVisible(page.getByText(s.panel.allValid).first());
    await expectVisible(page.getByText(s.panel.trusted, { exact: true }).first());
    expect(await page.getByText(s.panel.invalid).count()).toBe(0);
    await checkA11y(page, { moderate: true });
    await screenshot(page, `dispatch-1-signed-${lang}`);

    await dispatch(page, lang, 'C/1', 'post', {
      name: 'The Controller of Explosives',
      where: 'CGO Complex, Nagpur 440006',
    });
    const email = `dm-${tag}@district.example`;
    await dispatch(page, lang, 'C/2', 'email', { name: 'District Magistrate', where: email });
    const sent = (
      await apiAs(holder).get<{ outwardNumber: string; mode: string }[]>(`/api/efiles/${file._id}/dispatches`)
    ).body;
    expect(sent.map((x) => x.mode)).toEqual(['post', 'email']);
    for (const x of sent) await expectVisible(page.getByText(x.outwardNumber, { exact: false }).first());
    await screenshot(page, `dispatch-2-dispatched-${lang}`);

    // The mail reached the relay with the signed PDF attached, which pdfsig reports valid.
    const mail = await waitForMail(email, await mailSubject(holder, sent[1]!.outwardNumber));
    const pdf = mail.attachments?.[0];
    expect(pdf?.contentType).toBe('application/pdf');
    const saved = path.join(tmpdir(), `dispatch-${tag}.pdf`);
    writeFileSync(saved, Buffer.from(pdf!.base64, 'base64'));
    try {
      expect(execFileSync('pdfsig', [saved], { encoding: 'utf8' })).toContain('Signature is Valid.');
    } finally {
      rmSync(saved, { force: true });
    }

    // The register: both letters, found by their number.
    await page.goto('/dispatch-register');
    await expectVisible(page.getByRole('heading', { level: 1, name: t.register.title }));
    await page.getByRole('textbox', { name: t.register.search }).fill(tag);
    for (const x of sent) await expectVisible(page.getByRole('cell', { name: x.outwardNumber, exact: true }));
    await checkA11y(page, { moderate: true });
    await screenshot(page, `dispatch-3-register-${lang}`);
  });
});
