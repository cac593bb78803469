import { randomUUID } from 'node:crypto';

import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { OcrCountsJson } from '#shared/schemas/ocr.ts';

import { scanPdf } from '#server/test/scans.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectVisible, signInAs, switchLanguage, useBrowser } from './fixtures.ts';
import { apiAs, createApprovedUser, inDays, signedInAdmin } from './seed.ts';

// Decision 113: a scanned letter becomes searchable. An employee uploads a scan (two fixture pages, English then
// Hindi) on the Letters Manager; a director sees "Text recognised" on its card once the queue has read it, finds it
// by an English word of the scan and by a Hindi one, and opens the viewer at that word (found, marked in the text
// layer). An admin sees a scan that could not be read, with the reason, and queues it again. Axe clean, screenshots at
// 1280 and 390 px in English and Hindi.

const browser = useBrowser();

/** Full-page screenshots from the top, so the sticky header does not cover the page. */
async function screenshotFromTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

const field = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });

/** OCR runs at the lowest priority, after every preview and text of the portal: a 2-page scan takes a minute or more. */
const OCR_MS = 300_000;

/** The viewer opened from a search hit: the word found (its page said) and marked in the page's text layer. */
async function expectFoundInViewer(page: Page, dialog: Locator, found: string, word: string) {
  await expectVisible(dialog);
  await expectVisible(dialog.getByText(found, { exact: true }), 30_000);
  const marked = dialog.locator('[data-found]').first();
  await expectVisible(dialog.getByTestId('text-layer'));
  await expect.poll(() => marked.count(), { timeout: 20_000 }).toBe(1);
  expect(await marked.textContent()).toContain(word);
  // The text layer's words are real text: selectable, as the browser's own search finds them.
  expect(await page.evaluate(() => getComputedStyle(document.querySelector('[data-found]')!).userSelect)).not.toBe(
    'none',
  );
}

describe('Text recognised in scans', () => {
  it(
    'an uploaded scan is recognised, found by an English and a Hindi word, and opened at the word',
    async () => {
      const { page } = browser;
      const tag = randomUUID().slice(0, 6);
      const subject = `Scanned estate letter ${tag}`;
      const employee = await createApprovedUser('employee');
      const director = await createApprovedUser('director');

      // The employee uploads the scan on the Letters Manager, as any letter.
      await signInAs(page, employee, { to: '/dac' });
      await expectVisible(page.getByRole('heading', { name: 'Upload New Letter' }));
      for (const [label, value] of Object.entries({
        Language: 'English',
        'Communicated By': 'Speed Post',
        'Docket Date': inDays(-1),
        'Letter Date': inDays(-3),
        'Letter No': `EST/${tag}`,
        Category: 'Letter',
        Establishment: 'Estate Office',
        Subject: subject,
        'Docket No': `D-${tag}`,
      })) {
        await field(page, label).fill(value);
        if (label.endsWith('Date')) await field(page, label).press('Tab');
      }
      const scan = await scanPdf(['en-04.png', 'hi-01.png']);
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'File' }).click();
      await (await chooser).setFiles({ name: `estate-${tag}.pdf`, mimeType: 'application/pdf', buffer: scan });
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      await expectVisible(page.getByText('✅ Letter uploaded'), 30_000);

      // The director's register: the card says "Text recognised" once the queue has read the scan.
      await signInAs(page, director, { to: `/allLetter?q=${encodeURIComponent(subject)}` });
      const card = page.getByRole('article', { name: subject });
      await expectVisible(card);
      await expectVisible(card.getByText('Text recognised', { exact: true }), OCR_MS);
      await checkA11y(page, { moderate: true });
      await screenshotFromTop(page, 'ocr-letter-card');

      // Found by an English word that is only in the scan; "View" opens the viewer at it.
      await page.goto('/search?q=extinguishers');
      await expectVisible(page.getByRole('heading', { name: /Letter/, level: 2 }));
      await page.getByRole('button', { name: new RegExp(`^View .*${subject}$`) }).click();
      const dialog = page.getByRole('dialog', { name: new RegExp(subject) });
      await expectFoundInViewer(page, dialog, 'Found on page 1', 'extinguishers');
      await expectVisible(dialog.getByText('Text recognised', { exact: true }));
      await checkA11y(page, { moderate: true });
      await screenshot(page, 'ocr-viewer-en');
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      await checkA11y(page, { moderate: true });
      await screenshotFromTop(page, 'ocr-search-en');

      // In Hindi: the card, then a Hindi word of the scan's second page, the viewer at it.
      await switchLanguage(page, 'hi');
      await page.goto(`/allLetter?q=${encodeURIComponent(subject)}`);
      await expectVisible(page.getByRole('article', { name: subject }).getByText('पाठ पहचाना गया', { exact: true }));
      await checkA11y(page, { moderate: true });
      await screenshotFromTop(page, 'ocr-letter-card-hi');
      await page.goto(`/search?q=${encodeURIComponent('अनापत्ति')}`);
      await expectVisible(page.getByRole('heading', { name: /पत्र/, level: 2 }));
      await page.getByRole('button', { name: new RegExp(`^.*${subject} देखें$`) }).click();
      const dialogHi = page.getByRole('dialog', { name: new RegExp(subject) });
      await expectFoundInViewer(page, dialogHi, 'पृष्ठ 2 पर मिला', 'अनापत्ति');
      await expectVisible(dialogHi.getByText('पाठ पहचाना गया', { exact: true }));
      await checkA11y(page, { moderate: true });
      await screenshot(page, 'ocr-viewer-hi');
      await page.keyboard.press('Escape');
      await checkA11y(page, { moderate: true });
      await screenshotFromTop(page, 'ocr-search-hi');
    },
    OCR_MS + 120_000,
  );

  it('an admin sees a scan not recognised with its reason and queues it again (English and Hindi)', async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const employee = await createApprovedUser('employee');
    const form = new FormData();
    for (const [name, value] of Object.entries({
      letterLanguage: 'English',
      letterCommunBy: 'Speed Post',
      docketDate: inDays(-1),
      letterDate: inDays(-3),
      letterNo: `EST/${tag}`,
      category: 'Letter',
      establishment: 'Estate Office',
      letterSub: `Locked scan ${tag}`,
      docketNo: `D-${tag}`,
    })) {
      form.set(name, value);
    }
    const locked = await scanPdf(['en-01.png'], { password: 'secret' });
    form.set('file', new Blob([new Uint8Array(locked)], { type: 'application/pdf' }), `locked-${tag}.pdf`);
    const res = await apiAs(employee).post('/api/dac', form);
    expect(res.status, JSON.stringify(res.body)).toBe(201);

    // The queue reads it (at its lowest priority) and gives it up at once: encrypted.
    const admin = await signedInAdmin();
    await expect
      .poll(
        async () => {
          const counts = await apiAs(admin).get<OcrCountsJson>('/api/admin/ocr');
          return counts.body.failedFiles.find((f) => f.name === `locked-${tag}.pdf`)?.reason;
        },
        { timeout: 120_000, interval: 500 },
      )
      .toBe('encrypted');
    await signInAs(page, admin, { to: '/admin/ocr' });
    await expectVisible(page.getByRole('heading', { name: 'Text Recognition', level: 1 }));
    const row = page.getByRole('row').filter({ hasText: `locked-${tag}.pdf` });
    await expectVisible(row);
    await expectVisible(row.getByText('the PDF is encrypted'));
    await expectVisible(row.getByText('Letter', { exact: true }));
    await expectVisible(page.getByText('Files not recognised'));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'ocr-admin');

    await switchLanguage(page, 'hi');
    await expectVisible(page.getByRole('heading', { name: 'पाठ पहचान', level: 1 }));
    await expectVisible(row.getByText('PDF एन्क्रिप्टेड है'));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'ocr-admin-hi');
    await page.getByRole('button', { name: 'विफल फ़ाइलें फिर से आज़माएँ' }).click();
    await expectVisible(page.getByText(/पाठ पहचान के लिए \d+ फ़ाइल/));
    await switchLanguage(page, 'en');
  }, 180_000);
});
