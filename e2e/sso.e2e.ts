import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';

import type { UserJson } from '#shared/schemas/user.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { baseURL, expectHidden, expectPath, expectVisible, switchLanguage, useBrowser } from './fixtures.ts';
import { SSO_DIRECTOR, SSO_LABEL, SSO_UNVERIFIED } from './sso-people.ts';

// Single sign-on over OpenID Connect (issue 30 item 2, decision 063) in a browser: the shared e2e server signs people
// in with a real oidc-provider (e2e/global-setup.ts), whose own development sign-in, consent and sign-out pages the
// person goes through. Issue 30 asks for the login page with the button in English and Hindi, axe-clean, at 390 px.

const state = useBrowser();
const issuer = inject('ssoIssuer');
/** The portal as PORTAL_URL names it (http://localhost:port, e2e/global-setup.ts): the provider sends people back there. */
const PORTAL = baseURL.replace('127.0.0.1', 'localhost');

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });
const ssoButton = (page: Page, language: 'en' | 'hi') => page.getByRole('link', { name: SSO_LABEL[language] });

/** The refusal of a first sign-in whose (unverified) email is another account's, as the login page says it. */
const EMAIL_IN_USE = {
  en: 'An account with this email already exists and cannot be linked to this sign-in. Please contact the administrator.',
  hi: 'इस ईमेल से एक खाता पहले से मौजूद है और उसे इस साइन-इन से जोड़ा नहीं जा सकता। कृपया प्रशासक से संपर्क करें।',
};

/** Opens `to` with the page's language chosen beforehand, as the header's toggle keeps it (localStorage). */
async function openIn(page: Page, language: 'en' | 'hi', to: string) {
  await page.goto(`${PORTAL}/api/health`);
  await page.evaluate((language) => localStorage.setItem('language', language), language);
  await page.goto(`${PORTAL}${to}`);
}

/**
 * Clicks the single sign-on button and signs in as `login` at the provider's development pages (any password), then
 * consents when the provider asks. The provider's pages import a web font this closed network cannot fetch: refused
 * at once, so that no page waits for it.
 */
async function signInAtProvider(page: Page, language: 'en' | 'hi', login: string) {
  await page.context().route('https://fonts.googleapis.com/**', (route) => route.abort());
  await ssoButton(page, language).click();
  await page.waitForURL((url) => url.origin === issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // A first sign-in is asked for consent; one the person has consented to before goes straight back.
  const consent = page.getByRole('button', { name: 'Continue' });
  const back = page.waitForURL((url) => url.origin !== issuer);
  if (await Promise.race([consent.waitFor().then(() => true), back.then(() => false)])) await consent.click();
  await back;
}

describe('single sign-on on the login page (issue 30 item 2)', () => {
  it('signs a director in at the provider, lands signed in with the mapped role, and signs out at the provider', async () => {
    const { page } = state;
    await openIn(page, 'en', '/login');
    await expectVisible(page.getByRole('heading', { name: 'Login', level: 1 }));
    await expectVisible(ssoButton(page, 'en'));
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'sso-login-en');

    await signInAtProvider(page, 'en', SSO_DIRECTOR.login);
    // Back through /login?sso=<code>: the code is exchanged, then home, signed in as the provider's director.
    await expectPath(page, '/');
    await expectVisible(page.getByText('Login successful!'));
    const nav = mainNav(page);
    await expectVisible(nav.getByRole('button', { name: 'Director', exact: true }));
    await expectHidden(nav.getByRole('link', { name: 'Login', exact: true }));
    // The new account carries the provider's name and email (the profile page would cost this file 5 s more).
    const user = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}') as UserJson);
    expect(user).toMatchObject({ email: SSO_DIRECTOR.email, role: 'director', status: 'approved' });
    expect(user.personalDetails.name).toBe(SSO_DIRECTOR.name);

    // Sign Out ends the portal's session, then the provider's (RP-initiated logout), which asks first.
    await nav.getByRole('button', { name: 'My Account' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.origin === issuer);
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await expectPath(page, '/login');
    expect(new URL(page.url()).origin).not.toBe(issuer);
    await expectVisible(mainNav(page).getByRole('link', { name: 'Login', exact: true }));
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // The provider's session ended too: the button now asks for the sign-in again.
    await ssoButton(page, 'en').click();
    await page.waitForURL((url) => url.origin === issuer);
    await expectVisible(page.locator('input[name="login"]'));
  });

  it('offers the button in Hindi, and says a refusal in Hindi and English', async () => {
    const { page } = state;
    await openIn(page, 'hi', '/login');
    await expectVisible(page.getByRole('heading', { name: 'लॉग इन', level: 1 }));
    await expectVisible(ssoButton(page, 'hi'));
    await expectHidden(ssoButton(page, 'en'));
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'sso-login-hi');

    // The provider vouches for the admin's email without verifying it: the portal refuses to link the account.
    await signInAtProvider(page, 'hi', SSO_UNVERIFIED.login);
    await expectPath(page, '/login');
    expect(new URL(page.url()).searchParams.get('sso_error')).toBe('auth.sso_email_in_use');
    await expectVisible(page.getByRole('alert').filter({ hasText: EMAIL_IN_USE.hi }));
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'sso-refusal-hi');

    await switchLanguage(page, 'en');
    await expectVisible(page.getByRole('alert').filter({ hasText: EMAIL_IN_USE.en }));
    await expectVisible(ssoButton(page, 'en'));
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'sso-refusal-en');
  });
});
