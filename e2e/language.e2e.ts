import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { expectVisible, LOGIN_LABELS, switchLanguage, useBrowser } from './fixtures.ts';
import { apiAs, apiLogin, createApprovedUser } from './seed.ts';

// The language follows the account (decision 102): signing in from a browser that shows English, a person who chose
// Hindi gets the portal in Hindi, and nothing is written back; only a switch they make is sent, and kept. A person who
// never chose keeps the language they signed in with.

const state = useBrowser();

const languagePuts = (requests: Request[]) =>
  requests
    .filter((r) => r.url().endsWith('/api/users/me/language') && r.method() === 'PUT')
    .map((r) => JSON.parse(r.postData() ?? '{}') as { language: string });

describe('the language follows the account', () => {
  it('a Hindi person signing in from an English browser gets Hindi; only their own switch is sent', async () => {
    const { page } = state;
    const user = await createApprovedUser('employee');
    const { token } = await apiLogin(user.email, user.password);
    expect((await apiAs({ token }).put('/api/users/me/language', { language: 'hi' })).status).toBe(200);

    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.reload();
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await page.getByLabel(LOGIN_LABELS.email, { exact: false }).first().fill(user.email);
    await page.getByLabel(LOGIN_LABELS.password, { exact: false }).first().fill(user.password);
    await page.getByRole('button', { name: LOGIN_LABELS.submit, exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');

    // The portal opens in the account's Hindi: the header's switch now offers English.
    await page.waitForFunction(() => document.documentElement.lang === 'hi');
    await expectVisible(page.getByRole('button', { name: 'English' }));
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'language-follows-account-hi');
    expect(languagePuts(requests)).toEqual([]);
    const me = await apiAs({ token }).get<{ language: string }>('/api/auth/me');
    expect(me.body.language).toBe('hi');

    // The person switches to English: that choice is sent once and kept by the account.
    await switchLanguage(page, 'en');
    await expect.poll(() => languagePuts(requests)).toEqual([{ language: 'en' }]);
    await expect
      .poll(async () => (await apiAs({ token }).get<{ language: string }>('/api/auth/me')).body.language)
      .toBe('en');

    // A page load keeps English and sends nothing more.
    await page.reload();
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    expect(languagePuts(requests)).toHaveLength(1);
  });

  it('a person who never chose keeps the Hindi they signed in with, and their account is left as it was', async () => {
    const { page } = state;
    const user = await createApprovedUser('employee');
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    // Signed out, in a browser that last showed Hindi: set on a page where no app runs to write over it.
    await page.goto('/api/health');
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
      localStorage.setItem('language', 'hi');
    });
    await page.goto('/login');
    await page.waitForFunction(() => document.documentElement.lang === 'hi');
    await page.getByLabel('ईमेल', { exact: false }).first().fill(user.email);
    await page.getByLabel('पासवर्ड', { exact: false }).first().fill(user.password);
    await page.getByRole('button', { name: 'लॉग इन करें', exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await expectVisible(page.getByRole('button', { name: 'English' }));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('hi');
    expect(languagePuts(requests)).toEqual([]);
    const { token } = await apiLogin(user.email, user.password);
    const me = await apiAs({ token }).get<{ language: string; languageChosen: boolean }>('/api/auth/me');
    expect(me.body).toMatchObject({ language: 'en', languageChosen: false });
  });
});
