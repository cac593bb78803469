import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { UserJson } from '#shared/schemas/user.ts';

import { checkA11y, screenshot } from './a11y.ts';
import {
  expectHidden,
  expectPath,
  expectVisible,
  newContext,
  signInAs,
  switchLanguage,
  useBrowser,
} from './fixtures.ts';
import { createApprovedUser, signedInAdmin, uniquePersonName } from './seed.ts';
import { issuer, openIn, signInAtProvider, ssoButton } from './sso-browser.ts';
import { SSO_LINK_PERSON } from './sso-people.ts';

// Decision 090: a first single sign-on whose email is a portal account's, unverified by the provider, is refused and
// leaves a request; an administrator approves it under "Single sign-on links to approve" on the approvals screen, and
// the person then signs in by single sign-on; the administrator can remove the link again in Manage Users.

const state = useBrowser();

const LINK_REQUESTED =
  'Your portal account has this email, but your sign-in provider has not verified it. An administrator has been asked to link them; try again once they have.';

const section = (page: Page, language: 'en' | 'hi') =>
  page.getByRole('region', {
    name: language === 'en' ? 'Single sign-on links to approve' : 'स्वीकृति के लिए सिंगल साइन-ऑन जुड़ाव',
  });

/**
 * The single sign-on button once more, up to the portal's home page: the provider asks for the sign-in (and consent)
 * again, or, its own session still on, sends the person straight back.
 */
async function ssoAgain(page: Page, login: string) {
  await page.context().route('https://fonts.googleapis.com/**', (route) => route.abort());
  const home = page.waitForURL((url) => url.origin !== issuer && url.pathname === '/', { timeout: 30_000 });
  await ssoButton(page, 'en').click();
  const form = page.locator('input[name="login"]');
  if (!(await Promise.race([form.waitFor({ timeout: 30_000 }).then(() => true), home.then(() => false)]))) return;
  await form.fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  const consent = page.getByRole('button', { name: 'Continue' });
  if (await Promise.race([consent.waitFor({ timeout: 30_000 }).then(() => true), home.then(() => false)])) {
    await consent.click();
  }
  await home;
}

describe('single sign-on linked by an administrator (decision 090)', () => {
  it('refuses the first sign-in with the new message, an admin approves the link, the person signs in; the admin removes it', async () => {
    const { page, browser } = state;
    const name = uniquePersonName();
    const account = await createApprovedUser('employee', undefined, {
      email: SSO_LINK_PERSON.email,
      personalDetails: { name, dob: null, mobile: '', address: '' },
    });

    // The person: refused, told an administrator was asked.
    await openIn(page, 'en', '/login');
    await signInAtProvider(page, 'en', SSO_LINK_PERSON.login);
    await expectPath(page, '/login');
    expect(new URL(page.url()).searchParams.get('sso_error')).toBe('auth.sso_link_requested');
    await expectVisible(page.getByRole('alert').filter({ hasText: LINK_REQUESTED }));
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // The administrator, in another browser: the request on the approvals screen.
    const adminContext = await newContext(browser);
    try {
      const admin = await adminContext.newPage();
      await signInAs(admin, await signedInAdmin(), { to: '/admin/approval' });
      const links = section(admin, 'en');
      await expectVisible(links);
      const card = links.getByRole('article', { name });
      await expectVisible(card);
      await expectVisible(card.getByText(`Portal account: ${SSO_LINK_PERSON.email}`));
      await expectVisible(card.getByText(`Provider identity: ${SSO_LINK_PERSON.name} (${SSO_LINK_PERSON.email})`));
      await expectVisible(card.getByText(`Provider: ${issuer}`));
      await checkA11y(admin, { moderate: true });
      await screenshot(admin, 'sso-link-requests-en');

      // Approve asks first, naming the account and the identity.
      await card.getByRole('button', { name: 'Approve' }).click();
      let dialog = admin.getByRole('dialog', { name: 'Link this account to single sign-on?' });
      await expectVisible(
        dialog.getByText(
          `The portal account ${name} (${SSO_LINK_PERSON.email}) will be linked to the single sign-on identity ${SSO_LINK_PERSON.name} (${SSO_LINK_PERSON.email}) at ${issuer}.`,
        ),
      );
      await checkA11y(admin, { moderate: true });
      await screenshot(admin, 'sso-link-confirm-en');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expectHidden(dialog);

      // In Hindi, the same section and question; the approval from there.
      await switchLanguage(admin, 'hi');
      const hiCard = section(admin, 'hi').getByRole('article', { name });
      await expectVisible(hiCard.getByText(`पोर्टल खाता: ${SSO_LINK_PERSON.email}`, { exact: false }));
      await checkA11y(admin, { moderate: true });
      await screenshot(admin, 'sso-link-requests-hi');
      await hiCard.getByRole('button', { name: 'स्वीकृत करें' }).click();
      dialog = admin.getByRole('dialog', { name: 'इस खाते को सिंगल साइन-ऑन से जोड़ें?' });
      await expectVisible(dialog.getByText(`पोर्टल खाता ${name} (${SSO_LINK_PERSON.email})`, { exact: false }));
      await checkA11y(admin, { moderate: true });
      await screenshot(admin, 'sso-link-confirm-hi');
      await dialog.getByRole('button', { name: 'खाता जोड़ें' }).click();
      await expectVisible(admin.getByText(`${name} अब सिंगल साइन-ऑन से जुड़ गए हैं।`));
      await expectHidden(hiCard);

      // The person signs in by single sign-on, to their own account.
      await openIn(page, 'en', '/login');
      await ssoAgain(page, SSO_LINK_PERSON.login);
      await expectPath(page, '/');
      await expectVisible(page.getByText('Login successful!'));
      const user = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}') as UserJson);
      expect(user).toMatchObject({ _id: account.id, email: SSO_LINK_PERSON.email });

      // Manage Users shows the link; removing it asks first.
      await switchLanguage(admin, 'en');
      await admin.goto('/admin/manage');
      await admin.getByLabel('Search by name or email').fill(SSO_LINK_PERSON.email);
      const row = admin.getByRole('row', { name: new RegExp(SSO_LINK_PERSON.email.replace(/\./g, '\\.')) });
      await expectVisible(row.getByText('Single sign-on', { exact: true }));
      await row.getByRole('button', { name: `Actions for ${name}` }).click();
      await admin.getByRole('menuitem', { name: 'Remove single sign-on link' }).click();
      const remove = admin.getByRole('dialog', { name: `Remove the single sign-on link of ${name}?` });
      await expectVisible(
        remove.getByText(`${name} will no longer sign in through single sign-on (${issuer})`, { exact: false }),
      );
      await checkA11y(admin, { moderate: true });
      await screenshot(admin, 'sso-link-remove-en');
      await remove.getByRole('button', { name: 'Remove single sign-on link' }).click();
      await expectVisible(admin.getByText(`The single sign-on link of ${name} was removed.`));
      await expectHidden(row.getByText('Single sign-on', { exact: true }));
    } finally {
      await adminContext.close();
    }
  });
});
