import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { UserJson } from '#shared/schemas/user.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectPath, expectVisible, switchLanguage, useBrowser } from './fixtures.ts';
import { issuer, openIn, signInAtProvider, ssoButton } from './sso-browser.ts';
import { SSO_DIRECTOR, SSO_UNVERIFIED } from './sso-people.ts';

// Single sign-on over OpenID Connect (decision 063) in a browser: the worker's e2e portal signs people
// in with a real oidc-provider (e2e/global-setup.ts), whose own development sign-in, consent and sign-out pages the
// person goes through. Decision 063 asks for the login page with the button in English and Hindi, axe-clean, at 390 px.

const state = useBrowser();

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

/**
 * The refusal of a first sign-in whose email is the admin's, unverified by the provider: an administrator is asked to
 * link them (decision 090; the whole journey is e2e/sso-link.e2e.ts).
 */
const LINK_REQUESTED = {
  en: 'Your portal account has this email, but your sign-in provider has not verified it. An administrator has been asked to link them; try again once they have.',
  hi: 'आपके पोर्टल खाते में यही ईमेल है, पर आपकी साइन-इन सेवा ने इसकी पुष्टि नहीं की है। एक प्रशासक से दोनों को जोड़ने का अनुरोध किया गया है; उनके जोड़ देने के बाद फिर से प्रयास करें।',
};

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

    // The provider vouches for the admin's email without verifying it: the portal does not link the account by
    // itself, and says an administrator was asked to.
    await signInAtProvider(page, 'hi', SSO_UNVERIFIED.login);
    await expectPath(page, '/login');
    expect(new URL(page.url()).searchParams.get('sso_error')).toBe('auth.sso_link_requested');
    await expectVisible(page.getByRole('alert').filter({ hasText: LINK_REQUESTED.hi }));
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'sso-refusal-hi');

    await switchLanguage(page, 'en');
    await expectVisible(page.getByRole('alert').filter({ hasText: LINK_REQUESTED.en }));
    await expectVisible(ssoButton(page, 'en'));
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'sso-refusal-en');
  });
});
