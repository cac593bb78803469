import { randomUUID } from 'node:crypto';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { LetterJson } from '#shared/schemas/letter.ts';

import { pdfWithPages } from '#server/test/documents.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectVisible, signInAs, useBrowser } from './fixtures.ts';
import { apiAs, createApprovedUser, type SeededUser, signedInAdmin } from './seed.ts';

// Decision 009: the letters register. An employee uploads a letter with a PDF (with a progress bar) and edits it; a
// director finds it in /allLetter by part of its subject, typed in another case with spaces around, and downloads
// the file; another employee neither sees it nor may download it; the employee deletes it and an admin restores it
// from the recycle bin. Selected by label, role and visible text, in English.

const browser = useBrowser();

/**
 * A real PDF of about `kb` kilobytes, so the upload takes long enough to show progress, and a Confidential letter's
 * download can be watermarked (decision 071: a PDF that cannot be watermarked is refused).
 */
const pdfOf = (kb: number) => pdfWithPages(['Fire drill on the range, Monday 10 am.'], kb);

/** A text or date input by its label (its accessible name leaves out the required asterisk). */
/** Full-page screenshots from the top, so the sticky header does not cover the page. */
async function screenshotFromTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

const field = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });

async function fillLetter(page: Page, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    await field(page, label).fill(value);
    if (label.endsWith('Date')) await field(page, label).press('Tab'); // the date input reads what was typed on blur
  }
}

async function chooseFile(page: Page, label: string, name: string, buffer: Buffer) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: label }).click();
  await (await chooser).setFiles({ name, mimeType: 'application/pdf', buffer });
}

/** Seeds a letter through the API (multipart), as `user`. */
async function seedLetter(user: SeededUser, subject: string): Promise<LetterJson> {
  const form = new FormData();
  const values = {
    letterSub: subject,
    letterNo: 'HQ/ADM/17',
    letterDate: '2026-02-10',
    docketNo: `DK-${randomUUID().slice(0, 6)}`,
    docketDate: '2026-02-12',
    category: 'Order',
    establishment: 'DRDO HQ',
    letterLanguage: 'English',
    letterCommunBy: 'Email',
  };
  for (const [k, v] of Object.entries(values)) form.set(k, v);
  form.set('file', new Blob([new Uint8Array(pdfOf(2))], { type: 'application/pdf' }), 'order.pdf');
  const res = await apiAs(user).post<LetterJson>('/api/dac', form);
  if (res.status !== 201) throw new Error(`Seeding a letter failed (${res.status})`);
  return res.body;
}

describe('Letters register (dak)', () => {
  it('an employee uploads and edits a letter; a director finds and downloads it; an outsider may not', async () => {
    const { page, context } = browser;
    const tag = randomUUID().slice(0, 6);
    const employee = await createApprovedUser('employee');
    const director = await createApprovedUser('director');
    const outsider = await createApprovedUser('employee');

    // Letters Manager, upload mode.
    await signInAs(page, employee, { to: '/dac' });
    await expectVisible(page.getByRole('heading', { name: 'Letters Manager', level: 1 }));
    await expectVisible(page.getByRole('heading', { name: 'Upload New Letter' }));
    await checkA11y(page);

    // Upload without a file: the banner says so.
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectVisible(page.getByText('Subject is required.'));
    await fillLetter(page, {
      Language: 'Hindi',
      'Communicated By': 'Speed Post',
      'Docket Date': '2026-03-03',
      'Letter Date': '2026-03-01',
      'Letter No': 'CFEES/FS/2026/117',
      Category: 'Circular',
      Establishment: 'CFEES Delhi',
      Subject: `Annual Fire Drill Schedule ${tag}`,
      'Docket No': `D-${tag}`,
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectVisible(page.getByText('⚠️ Please select a file').first());

    // With a PDF, on a slow line, the progress bar shows how far the upload has gone.
    await chooseFile(page, 'File', 'fire-drill.pdf', pdfOf(600));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 200 * 1024,
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectVisible(page.getByRole('progressbar', { name: /^Uploading: \d+%$/ }));
    await expectVisible(page.getByText('✅ Letter uploaded'), 30_000);
    // The banner's emoji is drawn with the portal's own Noto Emoji (this machine has no emoji font: an empty box else).
    await page.waitForFunction(
      () => [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'Noto Emoji' && f.status === 'loaded'),
      undefined,
      { timeout: 10_000 },
    );
    expect(await page.evaluate(() => document.fonts.check('16px "Noto Emoji"', '✅'))).toBe(true);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expectVisible(page.getByRole('heading', { name: 'Upload New Letter' }));
    expect(await field(page, 'Subject').inputValue()).toBe('');
    const card = page.getByRole('listitem').filter({ hasText: `Annual Fire Drill Schedule ${tag}` });
    await expectVisible(card);
    await expectVisible(card.getByText(`By: ${employee.name}`));
    await expectVisible(card.getByText('01 Mar 2026'));
    await screenshotFromTop(page, 'letters-manager');

    // Click the card: the form is filled for editing; change the subject and save.
    await card.getByRole('button', { name: `Edit letter: Annual Fire Drill Schedule ${tag}` }).click();
    await expectVisible(page.getByRole('heading', { name: 'Edit Letter' }));
    expect(await field(page, 'Subject').inputValue()).toBe(`Annual Fire Drill Schedule ${tag}`);
    expect(await field(page, 'Letter No').inputValue()).toBe('CFEES/FS/2026/117');
    await field(page, 'Subject').fill(`Annual Fire Drill Schedule ${tag} (revised)`);
    await page.getByRole('combobox', { name: 'Classification' }).selectOption('Confidential');
    await checkA11y(page);
    await screenshotFromTop(page, 'letters-manager-edit');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectVisible(page.getByText('✅ Letter updated'));
    await expectVisible(page.getByRole('heading', { name: 'Upload New Letter' }));
    await expectVisible(page.getByRole('listitem').filter({ hasText: `Annual Fire Drill Schedule ${tag} (revised)` }));

    // The director finds it by part of the subject, in another case, with spaces around.
    const mine = await apiAs(employee).get<LetterJson[]>(`/api/dac?q=${tag}`);
    const letter = mine.body[0]!;
    expect(letter).toMatchObject({
      classification: 'Confidential',
      letterSub: `Annual Fire Drill Schedule ${tag} (revised)`,
    });
    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());
    await signInAs(page, director, { via: 'ui', to: '/allLetter' });
    await expectVisible(page.getByRole('heading', { name: 'Letters & Correspondence', level: 1 }));
    await page.getByLabel('Search letters').fill(`   fIRE dRILL schedule ${tag.toUpperCase()}   `);
    const found = page.getByRole('article', { name: `Annual Fire Drill Schedule ${tag} (revised)` });
    await expectVisible(found);
    await expectVisible(page.getByText('Showing 1 letter.'));
    for (const text of [
      letter.letterId,
      `D-${tag}`,
      'CFEES/FS/2026/117',
      '01 Mar 2026',
      '03 Mar 2026',
      'Circular',
      'CFEES Delhi',
      'Hindi',
      'Speed Post',
      employee.name,
      'Confidential',
    ]) {
      await expectVisible(found.getByText(text, { exact: true }));
    }
    await expectVisible(found.getByText(/^\d{2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} (am|pm)$/i)); // Uploaded On, 12-hour
    await checkA11y(page);
    await screenshotFromTop(page, 'all-letters');

    // History on the letter.
    await found.getByRole('button', { name: 'Show History' }).click();
    await expectVisible(found.getByText(`Uploaded by ${employee.name}`, { exact: false }));
    await expectVisible(found.getByText(`Edited by ${employee.name}`, { exact: false }));
    await expectVisible(found.getByText('Classification: Normal → Confidential'));

    // Download the file.
    const download = page.waitForEvent('download');
    await found.getByRole('link', { name: 'Download File: fire-drill.pdf' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('fire-drill.pdf');
    expect(await file.failure()).toBeNull();

    // No match.
    await page.getByLabel('Search letters').fill(`${tag} no such letter`);
    await expectVisible(page.getByText('No letters found'));

    // Another employee neither finds it nor may download it.
    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());
    await signInAs(page, outsider, { via: 'ui', to: `/allLetter?q=${tag}` });
    await expectVisible(page.getByText('No letters found'));
    const refused = await page.request.get(letter.fileUrl!);
    expect(refused.status()).toBe(403);
    expect((await apiAs(outsider).get(`/api/dac/${letter._id}`)).status).toBe(404);
  });

  it('an employee deletes a letter and an admin restores it from the recycle bin', async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const employee = await createApprovedUser('employee');
    const letter = await seedLetter(employee, `Stores audit ${tag}`);

    await signInAs(page, employee, { to: '/dac' });
    const card = page.getByRole('listitem').filter({ hasText: `Stores audit ${tag}` });
    await card.getByRole('button', { name: `Delete letter: Stores audit ${tag}` }).click();
    const dialog = page.getByRole('dialog');
    await expectVisible(dialog.getByText('Delete this letter?'));
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectVisible(page.getByText('✅ Letter deleted'));
    await expectHidden(card);

    const admin = await signedInAdmin();
    await page.evaluate(() => localStorage.clear());
    await signInAs(page, admin, { to: '/allLetter' });
    await page.getByRole('tab', { name: 'Recycle Bin' }).click();
    const binned = page.getByRole('article', { name: `Stores audit ${tag}` });
    await expectVisible(binned);
    await expectVisible(binned.getByText(employee.name).first());
    await checkA11y(page);
    await screenshotFromTop(page, 'letters-recycle-bin');
    await binned.getByRole('button', { name: `Restore letter ${letter.letterId}` }).click();
    await expectVisible(page.getByText(`Letter ${letter.letterId} restored.`));
    await expectHidden(binned);
    await page.getByRole('tab', { name: 'Letters' }).click();
    await page.getByLabel('Search letters').fill(letter.letterId);
    await expectVisible(page.getByRole('article', { name: `Stores audit ${tag}` }));
    expect((await apiAs(employee).get(`/api/dac/${letter._id}`)).status).toBe(200);
  });
});
