import { randomUUID } from 'node:crypto';

import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { expectVisible, groupIds, signInAs, switchLanguage, useBrowser } from './fixtures.ts';
import { apiAs, createApprovedUser, registrationFor, signedInAdmin, uploadLetter } from './seed.ts';

// Decision 060: in Hindi mode a timestamp names its month and am/pm in Hindi, day first ("21 नव॰ 2026, 3:05
// अपराह्न"); the password field's show/hide button, the Manage Close Groups intro and the Manage Directors designation
// placeholder are Hindi too. Screenshots at 1280 and 390 px: the letters register, the inbox and the open bell.

const browser = useBrowser();

const HINDI_MONTH = '(?:जन॰|फ़र॰|मार्च|अप्रैल|मई|जून|जुल॰|अग॰|सित॰|अक्टू॰|नव॰|दिस॰)';
const HINDI_DATE = new RegExp(`\\d{2} ${HINDI_MONTH} \\d{4}`);
const HINDI_TIMESTAMP = new RegExp(`\\d{2} ${HINDI_MONTH} \\d{4}, \\d{1,2}:\\d{2}\\s(?:पूर्वाह्न|अपराह्न)`);
/** What a date or time in English would leave: a month's abbreviation, am or pm. */
const ENGLISH_DATE_WORD = /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|am|pm)\b/;

const person = (name: string) =>
  createApprovedUser('employee', groupIds[0], { personalDetails: { ...registrationFor().personalDetails, name } });

/** The dates and times shown in `area` are Hindi: at least one timestamp, no English month or am/pm. */
async function expectHindiDates(area: Locator, { timestamp = true } = {}) {
  await expectVisible(area.getByText(timestamp ? HINDI_TIMESTAMP : HINDI_DATE).first());
  expect(await area.innerText()).not.toMatch(ENGLISH_DATE_WORD);
}

async function screenshotFromTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

describe('Dates and times in Hindi (issue 35)', () => {
  it('the letters register, the inbox and the bell write their dates and times in Hindi; English stays', async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const uploader = await person(`Asha Uploader ${tag}`);
    const officer = await person(`Kavita Officer ${tag}`);
    const subject = `Fire safety audit ${tag}`;
    const letter = await uploadLetter(uploader, subject, tag);
    const marked = await apiAs(uploader).post(`/api/dac/${letter._id}/movements`, { to: [officer.id] });
    expect(marked.status).toBe(201);

    // The uploader's Letters Manager in Hindi: the letter's date.
    await signInAs(page, uploader, { to: '/dac' });
    await switchLanguage(page, 'hi');
    await expectHindiDates(page.getByRole('listitem').filter({ hasText: subject }), { timestamp: false });
    await switchLanguage(page, 'en');

    // The register (an administrator's All Letters) in English, as ever: "21 Nov 2026, 3:05 pm"; then in Hindi.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await signInAs(page, await signedInAdmin(), { to: '/allLetter' });
    await page.getByLabel('Search letters').fill(tag);
    const found = page.getByRole('listitem').filter({ hasText: subject });
    await expectVisible(found.getByText(/^\d{2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2}\s[ap]m$/));
    await switchLanguage(page, 'hi');
    await expectHindiDates(found);
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'dates-letters-hi');
    await switchLanguage(page, 'en');

    // The officer's inbox and bell, in Hindi.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await signInAs(page, officer, { to: '/dac/inbox' });
    await switchLanguage(page, 'hi');
    const item = page.getByRole('article', { name: subject });
    await expectHindiDates(item);
    await screenshotFromTop(page, 'dates-inbox-hi');
    await page.getByRole('button', { name: 'सूचनाएँ: 1 अपठित' }).click();
    const bell = page.getByRole('dialog').filter({ hasText: subject });
    await expectVisible(bell.getByText(subject, { exact: false }));
    await expectHindiDates(bell);
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'dates-bell-hi');
    await switchLanguage(page, 'en');
  });

  it("the password field's show/hide button is named in Hindi", async () => {
    const { page } = browser;
    await page.goto('/login');
    await switchLanguage(page, 'hi');
    await expectVisible(page.getByRole('button', { name: 'पासवर्ड दिखाएँ या छिपाएँ' }));
    expect(await page.getByRole('button', { name: /password/i }).count()).toBe(0);
    await switchLanguage(page, 'en');
  });

  it('Manage Close Groups and Manage Directors in Hindi: the intro names से/तक; the designation placeholder', async () => {
    const { page } = browser;
    await signInAs(page, await signedInAdmin(), { to: '/admin/closeGroup' });
    await switchLanguage(page, 'hi');
    const intro = page.getByText(/^क्लोज़ ग्रुप समय-सीमित कार्य समूह हैं/);
    await expectVisible(intro);
    const text = await intro.innerText();
    expect(text).toContain('‘से’');
    expect(text).toContain('‘तक’');
    expect(text).not.toMatch(/[A-Za-z]/);
    await page.goto('/admin/manage-lab?section=directors');
    await expectVisible(page.getByPlaceholder('निदेशक', { exact: true }));
    expect(await page.getByPlaceholder('Director', { exact: true }).count()).toBe(0);
    await switchLanguage(page, 'en');
  });
});
