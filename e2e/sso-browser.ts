// A browser's way through single sign-on at the e2e run's OpenID provider (e2e/global-setup.ts), for the journeys
// that sign in with it (e2e/sso.e2e.ts, e2e/sso-link.e2e.ts).
import type { Page } from 'playwright-core';

import { baseURL } from './fixtures.ts';
import { portal } from './portal.ts';
import { SSO_LABEL } from './sso-people.ts';

export const issuer = portal.ssoIssuer;
/** The portal as PORTAL_URL names it (http://localhost:port, e2e/global-setup.ts): the provider sends people back there. */
export const PORTAL = baseURL.replace('127.0.0.1', 'localhost');

export const ssoButton = (page: Page, language: 'en' | 'hi') => page.getByRole('link', { name: SSO_LABEL[language] });

/** Opens `to` with the page's language chosen beforehand, as the header's toggle keeps it (localStorage). */
export async function openIn(page: Page, language: 'en' | 'hi', to: string) {
  await page.goto(`${PORTAL}/api/health`);
  await page.evaluate((language) => localStorage.setItem('language', language), language);
  await page.goto(`${PORTAL}${to}`);
}

/**
 * Clicks the single sign-on button and signs in as `login` at the provider's development pages (any password), then
 * consents when the provider asks. The provider's pages import a web font this closed network cannot fetch: refused
 * at once, so that no page waits for it.
 */
export async function signInAtProvider(page: Page, language: 'en' | 'hi', login: string) {
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
