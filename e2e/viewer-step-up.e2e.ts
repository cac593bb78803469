import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import type { CloseGroupJson } from '#shared/schemas/close-group.ts';

import { pdfWithText } from '#server/test/documents.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectVisible, signInAs, switchLanguage, useBrowser } from './fixtures.ts';
import { ageSession, apiAs, createApprovedUser, type SeededUser, signedInAdmin } from './seed.ts';

// Decision 095: a Secret close-group document opened in the viewer 16 minutes after signing in asks "Confirm it is
// you" first, and the viewer opens only once the password is given: it is not in the page while the dialog is open.
// The session is aged in the server's database (its verified_at), as e2e/step-up.e2e.ts does.

const browser = useBrowser();

const WORDS = {
  en: {
    dialog: 'Confirm it is you',
    password: 'Your password',
    confirm: 'Confirm',
    view: (name: string) => `View ${name}`,
  },
  hi: {
    dialog: 'पुष्टि करें कि यह आप ही हैं',
    password: 'आपका पासवर्ड',
    confirm: 'पुष्टि करें',
    view: (name: string) => `${name} देखें`,
  },
} as const;

/** A close group of `member` holding a Secret PDF they uploaded; returns the document's name. */
async function secretDocumentOf(member: SeededUser, tag: string): Promise<string> {
  const group = await apiAs(await signedInAdmin()).post<CloseGroupJson>('/admin/close-group', {
    groupName: `Magazine audit ${tag}`,
    groupPurpose: 'Audit the explosives magazine.',
    groupDuration: { from: '2020-01-01', to: '2099-12-31' },
    requestedBy: [member.id],
    adminRemarks: '',
  });
  expect(group.status).toBe(201);
  const name = `Magazine survey ${tag}.pdf`;
  const form = new FormData();
  form.set('classification', 'Secret');
  const pdf = pdfWithText(`Secret survey ${tag}`);
  form.set('document', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), name);
  const res = await apiAs(member).post(`/api/close-groups/${group.body._id}/upload`, form);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return name;
}

describe('the fresh check before the viewer (decision 095)', () => {
  for (const language of ['en', 'hi'] as const) {
    it(`16 minutes after signing in, "View" of a Secret document asks first, then opens the viewer (${language})`, async () => {
      const { page } = browser;
      const words = WORDS[language];
      const tag = randomUUID().slice(0, 6);
      // A director is cleared for Secret material by role.
      const director = await createApprovedUser('director');
      const name = await secretDocumentOf(director, tag);

      await signInAs(page, director, { via: 'ui', to: '/closeGroup' });
      if (language === 'hi') await switchLanguage(page, 'hi');
      const view = page.getByRole('button', { name: words.view(name) }).first();
      await expectVisible(view);
      await ageSession(page, 16);

      await view.click();
      const check = page.getByRole('dialog', { name: words.dialog });
      await expectVisible(check);
      // The viewer has not opened behind it: neither its dialog nor its toolbar is in the page.
      const viewer = page.getByRole('dialog', { name });
      expect(await viewer.count()).toBe(0);
      expect(await page.getByRole('toolbar').count()).toBe(0);
      await checkA11y(page, { moderate: true });
      await screenshot(page, `viewer-step-up-${language}`);
      expect(await viewer.count()).toBe(0);

      await check.getByLabel(words.password).fill(director.password);
      await check.getByRole('button', { name: words.confirm, exact: true }).click();
      await expectHidden(check);
      // Now the viewer opens, and draws the watermarked copy's first page.
      await expectVisible(viewer);
      await page.waitForFunction(
        () => document.querySelector('canvas[data-rendered-page]')?.getAttribute('data-rendered-page') === '1',
        undefined,
        { timeout: 20_000 },
      );
      await page.keyboard.press('Escape');
      await expect.poll(() => viewer.count()).toBe(0);
      expect(browser.pageErrors).toEqual([]);
    });
  }
});
