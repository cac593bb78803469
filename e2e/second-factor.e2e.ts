import { describe, expect, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectPath, expectVisible, signInAs, useBrowser } from './fixtures.ts';
import {
  enrol,
  escapeRegExp,
  expectSignedIn,
  field,
  fillLogin,
  freshDirector,
  passwordSignIn,
  screenView,
  securityCard,
  signOut,
  TEXT,
  wrongCode,
} from './second-factor.steps.ts';
import { signedInAdmin } from './seed.ts';

// Decision 064 in the browser: a director sets up an authenticator app of their own accord in
// My Account → Security, is then asked for a code at every sign-in (a wrong one refused, a right one and a recovery
// code, once, let in), and an admin's "Reset second factor" brings back the password-only sign-in. The same screens
// in Hindi with no English left, axe-clean down to moderate, with screenshots at 1280 and 390 px. The shared e2e
// server requires a second factor of no role (no MFA_REQUIRED_ROLES): only the people who set one up here are asked.

const browser = useBrowser();

describe('second factor (issue 30 item 3, decision 064)', () => {
  it('a director sets up an authenticator app, is asked for a code at sign-in, a wrong one refused, a right one and a recovery code (once) let in', async () => {
    const { page } = browser;
    const director = await freshDirector();
    await signInAs(page, director, { to: '/profile' });
    const { recovery, next, secret } = await enrol(page, 'en', async (screen, scope) => {
      await checkA11y(page, { moderate: true });
      await screenView(page, `second-factor-${screen}`, screen === 'security-none' ? scope : undefined);
    });

    // The Security card now lists the app and the recovery codes left.
    const card = securityCard(page);
    await expectVisible(card.getByRole('cell', { name: /Pixel 8/ }));
    await expectVisible(card.getByText(TEXT.en.codesLeft(10)));
    await checkA11y(page, { moderate: true });
    await screenView(page, 'second-factor-security', card);
    expect(await passwordSignIn(director)).toBe('auth.second_factor_required');

    // Signed out, the password alone no longer signs in: the code prompt, with the focus on the code.
    await signOut(page);
    await fillLogin(page, director);
    await expectVisible(page.getByRole('heading', { name: 'Second factor', level: 1 }));
    await expectPath(page, '/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.waitForFunction(() => document.activeElement?.getAttribute('autocomplete') === 'one-time-code');
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'second-factor-prompt');

    // An empty code, then a wrong one: refused, with the message under the field; still on the login page.
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectVisible(page.getByText('Enter the code.'));
    await field(page, 'Code').fill(await wrongCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectVisible(page.getByText('That code is not right. Please try again.'));
    await expectPath(page, '/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'second-factor-prompt-refused');

    // A code from the app: signed in.
    await field(page, 'Code').fill(await next());
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectSignedIn(page);
    await expectVisible(
      page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'My Account' }),
    );

    // A recovery code signs in once; the same one again is refused, another one still works.
    await signOut(page);
    await fillLogin(page, director);
    await field(page, 'Code').fill(recovery[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectSignedIn(page);
    await signOut(page);
    await fillLogin(page, director);
    await field(page, 'Code').fill(recovery[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectVisible(page.getByText('That code is not right. Please try again.'));
    await expectPath(page, '/login');
    await field(page, 'Code').fill(recovery[1]!.toUpperCase());
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectSignedIn(page);
    await page.goto('/profile');
    await expectVisible(securityCard(page).getByText(TEXT.en.codesLeft(8)));
    expect(browser.pageErrors).toEqual([]);
  });

  it('an admin resets the person’s second factor in Manage Users; the person then signs in with the password only', async () => {
    const { page } = browser;
    const director = await freshDirector();
    await signInAs(page, director, { to: '/profile' });
    await enrol(page, 'en', async () => {});
    expect(await passwordSignIn(director)).toBe('auth.second_factor_required');
    await signOut(page);

    const t = TEXT.en;
    await signInAs(page, await signedInAdmin(), { to: '/admin/manage' });
    await expectVisible(page.getByRole('heading', { name: t.manageTitle, level: 1 }));
    await field(page, t.search).fill(director.email);
    const row = page.getByRole('row', { name: new RegExp(escapeRegExp(director.email)) });
    await expectVisible(row);
    await row.getByRole('button', { name: t.actionsFor(director.name) }).click();
    await page.getByRole('menuitem', { name: t.reset }).click();
    const dialog = page.getByRole('dialog', { name: t.resetTitle(director.name) });
    await expectVisible(dialog);
    await checkA11y(page, { moderate: true });
    await screenView(page, 'second-factor-reset-dialog');
    await dialog.getByRole('button', { name: t.reset }).click();
    await expectVisible(page.getByText(t.resetDone(director.name)));
    await expectHidden(dialog);
    await signOut(page);

    // The person signs in with the password only, and has no second factor left.
    await fillLogin(page, director);
    await expectSignedIn(page);
    await page.goto('/profile');
    await expectVisible(securityCard(page).getByText(t.none));
    expect(browser.pageErrors).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Hindi (as e2e/hindi-text.e2e.ts checks): no Latin letters outside what people typed, the key and codes to copy, and
// the names of products and formats.

/** Names that stay in Latin letters in Hindi: the authenticator apps named as examples, "QR", the language switch. */
