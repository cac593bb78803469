import { randomUUID } from 'node:crypto';

import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { baseURL, expectHidden, expectPath, expectVisible, LOGIN_LABELS, useBrowser } from './fixtures.ts';
import { ageSession, apiAs, createApprovedUser, signedInAdmin, uploadSecretLetter } from './seed.ts';

// Passkeys as a second factor (decision 065), with Chromium's virtual authenticator over CDP. The
// e2e server listens on 127.0.0.1, which a browser does not accept as a WebAuthn RP ID (it must be a domain): this
// journey opens the same server as http://localhost, a secure context too.

const browser = useBrowser();
const LOCAL_URL = baseURL.replace('127.0.0.1', 'localhost');

let context: BrowserContext | undefined;
afterEach(async () => {
  await context?.close();
  context = undefined;
});

/** A page on http://localhost with a virtual platform authenticator (a passkey store with fingerprint-like checks). */
async function pageWithAuthenticator(): Promise<Page> {
  context = await browser.browser.newContext({
    baseURL: LOCAL_URL,
    viewport: { width: 1280, height: 800 },
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  page.on('pageerror', (err) => browser.pageErrors.push(err));
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return page;
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel(LOGIN_LABELS.email, { exact: false }).first().fill(email);
  await page.getByLabel(LOGIN_LABELS.password, { exact: false }).first().fill(password);
  await page.getByRole('button', { name: LOGIN_LABELS.submit, exact: true }).click();
}

describe('passkeys', () => {
  it('adds a passkey in My Account, then signs in with the password and the passkey', async () => {
    const page = await pageWithAuthenticator();
    const person = await createApprovedUser('employee');

    // My Account: signed in with the password alone (no factor required yet), add a passkey.
    await signInWithPassword(page, person.email, person.password);
    await expectPath(page, '/');
    await page.goto('/profile');
    await expectVisible(page.getByText('You have no second factor yet.'));
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await dialog.getByLabel('Name of this passkey').fill('Test laptop');
    await dialog.getByRole('button', { name: 'Add a passkey' }).click();
    await expectVisible(dialog.getByText('Your recovery codes'));
    await checkA11y(page);
    await screenshot(page, 'passkeys-recovery-codes');
    await dialog.getByRole('button', { name: 'I have saved them, continue' }).click();
    await expectVisible(page.getByRole('button', { name: 'Remove Test laptop' }));
    await expectVisible(page.getByRole('cell', { name: /Test laptop/ }).getByText('Passkey'));
    await checkA11y(page);
    await screenshot(page, 'passkeys-profile');
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await expectVisible(page.getByRole('button', { name: 'पासकी जोड़ें' }));
    await checkA11y(page);
    await screenshot(page, 'passkeys-profile-hi');
    await page.getByRole('button', { name: 'English' }).click();

    // Sign out, then in: the password, then "Use a passkey" (a factor set up of one's own accord is asked for at every
    // sign-in, decision 064; the worker's e2e portal requires none).
    await page.getByRole('button', { name: /my account/i }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expectPath(page, '/login');
    await signInWithPassword(page, person.email, person.password);
    await expectVisible(page.getByRole('heading', { name: 'Use your passkey' }));
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await checkA11y(page);
    await screenshot(page, 'passkeys-sign-in');
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await expectVisible(page.getByRole('button', { name: 'पासकी का उपयोग करें' }));
    await checkA11y(page);
    await screenshot(page, 'passkeys-sign-in-hi');
    await page.getByRole('button', { name: 'English' }).click();

    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expectPath(page, '/profile'); // back where the person signed out
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    expect((await apiAs({ token: token! }).get('/api/auth/me')).status).toBe(200);
    // The password alone no longer gives a session.
    const again = await apiAs(null).post('/api/auth/login', { email: person.email, password: person.password });
    expect(again.body).toMatchObject({ code: 'auth.second_factor_required', methods: ['passkey', 'recovery'] });

    // The step-up before a Secret letter (decision 066), 16 minutes after signing in, answered with the passkey.
    const admin = await signedInAdmin();
    expect((await apiAs(admin).put(`/admin/users/${person.id}/clearance`, { cleared: true })).status).toBe(200);
    const subject = `Secret magazine audit ${randomUUID().slice(0, 6)}`;
    await uploadSecretLetter({ token: token! }, subject);
    await page.goto(`/allLetter?q=${encodeURIComponent(subject)}`);
    const card = page.getByRole('article', { name: subject });
    await expectVisible(card);
    await ageSession(page, 16);
    await card.getByRole('button', { name: 'Show History' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
    await expectVisible(confirm);
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'passkeys-step-up');
    await confirm.getByRole('button', { name: 'Use a passkey' }).click();
    await expectHidden(confirm);
    await expectVisible(card.getByText(/Uploaded by/).first());
  });
});
