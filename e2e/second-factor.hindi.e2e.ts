import { describe, expect, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { expectVisible, signInAs, switchLanguage, useBrowser } from './fixtures.ts';
import {
  enrol,
  escapeRegExp,
  expectSignedIn,
  field,
  fillLogin,
  freshDirector,
  latinLeft,
  passwordSignIn,
  screenView,
  securityCard,
  signOut,
  TEXT,
  textsOf,
} from './second-factor.steps.ts';
import { signedInAdmin } from './seed.ts';

// Decision 064 in the browser: a director sets up an authenticator app of their own accord in
// My Account → Security, is then asked for a code at every sign-in (a wrong one refused, a right one and a recovery
// code, once, let in), and an admin's "Reset second factor" brings back the password-only sign-in. The same screens
// in Hindi with no English left, axe-clean down to moderate, with screenshots at 1280 and 390 px. The shared e2e
// server requires a second factor of no role (no MFA_REQUIRED_ROLES): only the people who set one up here are asked.

const browser = useBrowser();

describe('second factor in Hindi (issue 30 item 3)', () => {
  it('the Security card, the enrolment, the recovery codes, the code prompt and the reset dialog have no English', async () => {
    const { page } = browser;
    const director = await freshDirector();
    await signInAs(page, director, { to: '/profile' });
    await switchLanguage(page, 'hi');
    const t = TEXT.hi;
    let secret = '';
    const { recovery, next } = await enrol(page, 'hi', async (screen, scope) => {
      if (screen === 'enrol') secret = (await scope.getByTestId('totp-secret').innerText()).trim();
      const codes = screen === 'recovery-codes' ? await scope.getByRole('listitem').allInnerTexts() : [];
      expect(latinLeft(await textsOf(scope), [secret, 'Pixel 8', ...codes])).toEqual([]);
      await checkA11y(page, { moderate: true });
      await screenView(page, `second-factor-${screen}-hi`, screen === 'security-none' ? scope : undefined);
    });
    const card = securityCard(page, 'hi');
    await expectVisible(card.getByText(t.codesLeft(10)));
    expect(latinLeft(await textsOf(card), ['Pixel 8'])).toEqual([]);
    await checkA11y(page, { moderate: true });
    await screenView(page, 'second-factor-security-hi', card);

    // Signed out and in again, in Hindi: the code prompt, its refusals.
    await signOut(page, 'hi');
    await fillLogin(page, director, 'hi');
    await expectVisible(page.getByRole('heading', { name: t.promptTitle, level: 1 }));
    const main = page.getByRole('main');
    expect(latinLeft(await textsOf(main), [])).toEqual([]);
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'second-factor-prompt-hi');
    await page.getByRole('button', { name: t.verify }).click();
    await expectVisible(page.getByText(t.codeRequired));
    await field(page, t.code).fill(recovery[0]!);
    await page.getByRole('button', { name: t.verify }).click();
    await expectSignedIn(page);
    await signOut(page, 'hi');
    await fillLogin(page, director, 'hi');
    await field(page, t.code).fill(recovery[0]!);
    await page.getByRole('button', { name: t.verify }).click();
    await expectVisible(page.getByText(t.codeInvalid));
    expect(latinLeft(await textsOf(main), [recovery[0]!])).toEqual([]);
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'second-factor-prompt-refused-hi');
    await field(page, t.code).fill(await next());
    await page.getByRole('button', { name: t.verify }).click();
    await expectSignedIn(page);
    await signOut(page, 'hi');

    // The administrator's reset dialog, in Hindi.
    await signInAs(page, await signedInAdmin(), { to: '/admin/manage' });
    await expectVisible(page.getByRole('heading', { name: t.manageTitle, level: 1 }));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('hi');
    await field(page, t.search).fill(director.email);
    const row = page.getByRole('row', { name: new RegExp(escapeRegExp(director.email)) });
    await row.getByRole('button', { name: t.actionsFor(director.name) }).click();
    await page.getByRole('menuitem', { name: t.reset }).click();
    const dialog = page.getByRole('dialog', { name: t.resetTitle(director.name) });
    await expectVisible(dialog);
    expect(latinLeft(await textsOf(dialog), [director.name])).toEqual([]);
    await checkA11y(page, { moderate: true });
    await screenView(page, 'second-factor-reset-dialog-hi');
    await dialog.getByRole('button', { name: t.reset }).click();
    await expectVisible(page.getByText(t.resetDone(director.name)));
    expect(await passwordSignIn(director)).toBe('session');
    expect(browser.pageErrors).toEqual([]);
  });
});
