import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { generate } from 'otplib';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { checkA11y, screenshot, SCREENSHOT_WIDTHS } from './a11y.ts';
import { expectHidden, expectPath, expectVisible, signInAs, switchLanguage, useBrowser } from './fixtures.ts';
import { apiAs, createApprovedUser, type SeededUser, signedInAdmin, uniquePersonName } from './seed.ts';

// Decision 064 in the browser: a director sets up an authenticator app of their own accord in
// My Account → Security, is then asked for a code at every sign-in (a wrong one refused, a right one and a recovery
// code, once, let in), and an admin's "Reset second factor" brings back the password-only sign-in. The same screens
// in Hindi with no English left, axe-clean down to moderate, with screenshots at 1280 and 390 px. The shared e2e
// server requires a second factor of no role (no MFA_REQUIRED_ROLES): only the people who set one up here are asked.

const browser = useBrowser();

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The words of these screens, in each language (web/i18n/locales/{en,hi}: auth, common, people, messages). */
const TEXT = {
  en: {
    nav: 'Main navigation',
    account: 'My Account',
    signOut: 'Sign Out',
    email: 'Email',
    password: 'Password',
    login: 'Login',
    security: 'Security',
    none: 'You have no second factor yet.',
    add: 'Add an authenticator app',
    enrolTitle: 'Set up an authenticator app',
    start: 'Show the QR code',
    qr: 'QR code for your authenticator app',
    appName: 'Name for this app (optional)',
    code: 'Code',
    confirm: 'Confirm',
    codesTitle: 'Your recovery codes',
    saved: 'I have saved them, continue',
    promptTitle: 'Second factor',
    verify: 'Verify',
    codeRequired: 'Enter the code.',
    codeInvalid: 'That code is not right. Please try again.',
    codesLeft: (n: number) => `${n} recovery codes left.`,
    manageTitle: 'Manage Users',
    search: 'Search by name or email',
    actionsFor: (name: string) => `Actions for ${name}`,
    reset: 'Reset second factor',
    resetTitle: (name: string) => `Reset the second factor of ${name}?`,
    resetDone: (name: string) => `The second factor of ${name} was reset.`,
  },
  hi: {
    nav: 'मुख्य नेविगेशन',
    account: 'मेरा खाता',
    signOut: 'साइन आउट',
    email: 'ईमेल',
    password: 'पासवर्ड',
    login: 'लॉग इन करें',
    security: 'सुरक्षा',
    none: 'आपके पास अभी कोई दूसरा फ़ैक्टर नहीं है।',
    add: 'ऑथेंटिकेटर ऐप जोड़ें',
    enrolTitle: 'ऑथेंटिकेटर ऐप सेट करें',
    start: 'QR कोड दिखाएँ',
    qr: 'आपके ऑथेंटिकेटर ऐप के लिए QR कोड',
    appName: 'इस ऐप का नाम (वैकल्पिक)',
    code: 'कोड',
    confirm: 'पुष्टि करें',
    codesTitle: 'आपके रिकवरी कोड',
    saved: 'मैंने इन्हें सहेज लिया, आगे बढ़ें',
    promptTitle: 'दूसरा फ़ैक्टर',
    verify: 'सत्यापित करें',
    codeRequired: 'कोड दर्ज करें।',
    codeInvalid: 'यह कोड सही नहीं है। कृपया फिर से प्रयास करें।',
    codesLeft: (n: number) => `${n} रिकवरी कोड बचे हैं।`,
    manageTitle: 'उपयोगकर्ता प्रबंधन',
    search: 'नाम या ईमेल से खोजें',
    actionsFor: (name: string) => `${name} के लिए कार्रवाइयाँ`,
    reset: 'दूसरा फ़ैक्टर रीसेट करें',
    resetTitle: (name: string) => `${name} का दूसरा फ़ैक्टर रीसेट करें?`,
    resetDone: (name: string) => `${name} का दूसरा फ़ैक्टर रीसेट किया गया।`,
  },
} as const;
type Language = keyof typeof TEXT;

const field = (scope: Page | Locator, label: string) => scope.getByLabel(new RegExp(`^${escapeRegExp(label)}( \\*)?$`));

/**
 * Codes the way an authenticator app makes them, minding the server's one-use rule (decision 064: a code is accepted
 * once, and never one of a step at or before the last accepted) without waiting for the clock (decision 106): the
 * first code is of the current 30 s step, the second of the step after it, which the server's own check accepts as the
 * one step of drift it allows. A journey needs no more than two per person (the enrolment and one sign-in); a third
 * would be two steps ahead, which the server rightly refuses, so it throws here instead of sleeping for a window.
 */
function authenticator(secret: string) {
  let lastStep = -1;
  return async (): Promise<string> => {
    const nowStep = Math.floor(Date.now() / 30_000);
    const step = Math.max(nowStep, lastStep + 1);
    if (step > nowStep + 1) throw new Error('A third code within one 30 s step: sign in as a new person instead.');
    lastStep = step;
    return generate({ secret, epoch: step * 30 + 1 });
  };
}

/** Six digits the server would refuse for `secret` now (none of the codes of the steps it accepts). */
async function wrongCode(secret: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const near = await Promise.all([-60, -30, 0, 30, 60].map((d) => generate({ secret, epoch: now + d })));
  let n = 123456;
  while (near.includes(String(n))) n++;
  return String(n);
}

/**
 * What a person sees of the screen now (not the whole page: a dialog over a long page is seen where it is), at 1280
 * and 390 px, as e2e/screenshots/<name>-<width>.png; scrolled to `target` first when given.
 */
async function screenView(page: Page, name: string, target?: Locator): Promise<void> {
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'screenshots');
  mkdirSync(dir, { recursive: true });
  const original = page.viewportSize();
  try {
    for (const size of SCREENSHOT_WIDTHS) {
      await page.setViewportSize(size);
      if (target) await target.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await page.screenshot({ path: path.join(dir, `${name}-${size.width}.png`), animations: 'disabled' });
    }
  } finally {
    if (original) await page.setViewportSize(original);
  }
}

/** Fills the login form and sends it. */
async function fillLogin(page: Page, user: SeededUser, lang: Language = 'en') {
  const t = TEXT[lang];
  await page.goto('/login');
  await field(page, t.email).fill(user.email);
  await page.getByLabel(t.password, { exact: false }).first().fill(user.password);
  await page.getByRole('button', { name: t.login, exact: true }).click();
}

/** Signed in: off the login page (back where the person was, or home), with the session stored. */
async function expectSignedIn(page: Page) {
  await page.waitForURL((url) => url.pathname !== '/login');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
}

/** Signs out as a person would: My Account → Sign Out; back on /login. */
async function signOut(page: Page, lang: Language = 'en') {
  const t = TEXT[lang];
  await page.getByRole('navigation', { name: t.nav }).getByRole('button', { name: t.account }).click();
  await page.getByRole('menuitem', { name: t.signOut }).click();
  await expectPath(page, '/login');
}

/** The Security card of My Account. */
const securityCard = (page: Page, lang: Language = 'en') =>
  page
    .locator('.mantine-Card-root')
    .filter({ has: page.getByRole('heading', { name: TEXT[lang].security, level: 2 }) });

/** A director of the first group with a name no other test uses. */
const freshDirector = () =>
  createApprovedUser('director', undefined, {
    personalDetails: { name: uniquePersonName(), dob: null, mobile: '', address: '' },
  });

/** What POST /api/auth/login answers `user` now: 'session', or the second-factor step's code. */
async function passwordSignIn(user: SeededUser): Promise<string> {
  const res = await apiAs(null).post<{ code?: string; token?: string }>('/api/auth/login', {
    email: user.email,
    password: user.password,
  });
  expect(res.status).toBe(200);
  return res.body.code ?? 'session';
}

/**
 * My Account → Security → set up the authenticator app: the QR code and the key to type; an empty and a wrong code
 * refused; confirmed with a code made from the key on the page; the ten recovery codes shown once. `check` runs on
 * each screen (the card, the QR code, the recovery codes). Returns the key, the codes and the next code to use.
 */
async function enrol(
  page: Page,
  lang: Language,
  check: (screen: 'security-none' | 'enrol-start' | 'enrol' | 'recovery-codes', scope: Locator) => Promise<void>,
) {
  const t = TEXT[lang];
  const card = securityCard(page, lang);
  await expectVisible(card.getByText(t.none));
  await check('security-none', card);
  await card.getByRole('button', { name: t.add }).click();
  const dialog = page.getByRole('dialog', { name: t.enrolTitle });
  await expectVisible(dialog);
  await check('enrol-start', dialog);
  await dialog.getByRole('button', { name: t.start }).click();
  await expectVisible(dialog.getByRole('img', { name: t.qr }));
  const secret = (await dialog.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

  // An empty code is said at once; a wrong one by the server; both under the field.
  await dialog.getByRole('button', { name: t.confirm }).click();
  await expectVisible(dialog.getByText(t.codeRequired));
  await field(dialog, t.code).fill(await wrongCode(secret));
  await dialog.getByRole('button', { name: t.confirm }).click();
  await expectVisible(dialog.getByText(t.codeInvalid));
  await check('enrol', dialog);

  const next = authenticator(secret);
  await field(dialog, t.appName).fill('Pixel 8');
  await field(dialog, t.code).fill(await next());
  await dialog.getByRole('button', { name: t.confirm }).click();
  const codes = dialog.getByRole('list', { name: t.codesTitle }).getByRole('listitem');
  await expectVisible(codes);
  const recovery = await codes.allInnerTexts();
  expect(recovery).toHaveLength(10);
  for (const c of recovery) expect(c).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
  await check('recovery-codes', dialog);
  await dialog.getByRole('button', { name: t.saved }).click();
  await expectHidden(dialog);
  return { secret, recovery, next };
}

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
const ALLOWED_WORDS = new Set(['Google', 'Microsoft', 'Authenticator', 'FreeOTP', 'QR', 'English']);
/** Emails, and the recovery codes' shape (the hint's example "abcde-fghij" and the codes themselves). */
const ALLOWED_PATTERNS = [/[\w.+-]+@[\w.-]+/g, /\b[a-z0-9]{5}-[a-z0-9]{5}\b/gi];

/** The visible text of `scope`, with the accessible names of its buttons and images and its placeholders. */
const textsOf = (scope: Locator) =>
  scope.evaluate((root) => {
    const out = [(root as HTMLElement).innerText];
    for (const el of root.querySelectorAll('button, a, input, img, [role="button"], [aria-label]')) {
      for (const attr of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = el.getAttribute(attr);
        if (value) out.push(value);
      }
    }
    return out;
  });

/** Every run of Latin letters in `texts` that is not in `kept` (typed names, the key) nor allowed above. */
function latinLeft(texts: string[], kept: string[]): string[] {
  const found: string[] = [];
  const sorted = [...kept].filter(Boolean).sort((a, b) => b.length - a.length);
  for (const text of texts) {
    let rest = text;
    for (const name of sorted) rest = rest.split(name).join(' ');
    for (const pattern of ALLOWED_PATTERNS) rest = rest.replace(pattern, ' ');
    for (const m of rest.matchAll(/[A-Za-z]+/g)) {
      if (ALLOWED_WORDS.has(m[0])) continue;
      found.push(`"${m[0]}" in …${rest.slice(Math.max(0, m.index - 30), m.index + 30).replace(/\s+/g, ' ')}…`);
    }
  }
  return found;
}

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
