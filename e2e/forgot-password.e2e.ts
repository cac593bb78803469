import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import pg from 'pg';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { baseURL, expectPath, expectVisible, useBrowser } from './fixtures.ts';
import { linkIn, waitForMail } from './mail.ts';
import { portal } from './portal.ts';
import { apiAs, apiCall, apiLogin, createApprovedUser } from './seed.ts';

// Forgot password (decision 077) in a browser, with the worker's e2e portal mailing through a real SMTP
// server (e2e/global-setup.ts): the login page's link, the request, the mail, its link, a new password, signing in
// with it; the link refused a second time (English and Hindi, axe-clean, 1280 and 390 px). The link refused after its
// 30 minutes (aged in the e2e portal's database; English and Hindi), and an earlier link refused once a later one
// has reset the password (English): each time the refusal offers a new link and the password stays as it was.

const state = useBrowser();
/** The portal as PORTAL_URL names it (http://localhost:port): the mailed link opens it there. */
const PORTAL = baseURL.replace('127.0.0.1', 'localhost');

const WORDS = {
  en: {
    forgotLink: 'Forgot password?',
    forgotTitle: 'Forgot password',
    email: 'Email',
    send: 'Send the link',
    sent: 'If this email belongs to an account of the portal, a link to reset its password has been sent to it.',
    mailSubject: 'Reset your Lab Portal password',
    resetTitle: 'Choose a new password',
    newPassword: /^New password/,
    confirm: /^Confirm new password/,
    change: 'Change password',
    done: 'Your password has been changed. Please sign in with your new password.',
    login: 'Login',
    submit: 'Login',
    loginTitle: 'Login',
    password: 'Password',
    spent: 'This link to reset your password has expired or was already used. Please ask for a new one.',
    askAgain: 'Ask for a new link',
    signedIn: 'Login successful!',
  },
  hi: {
    forgotLink: 'पासवर्ड भूल गए?',
    forgotTitle: 'पासवर्ड भूल गए',
    email: 'ईमेल',
    send: 'लिंक भेजें',
    sent: 'यदि यह ईमेल पोर्टल के किसी खाते का है, तो उसका पासवर्ड रीसेट करने का लिंक उस पर भेज दिया गया है।',
    mailSubject: 'अपना लैब पोर्टल पासवर्ड रीसेट करें',
    resetTitle: 'नया पासवर्ड चुनें',
    newPassword: /^नया पासवर्ड/,
    confirm: /^नए पासवर्ड की पुष्टि करें/,
    change: 'पासवर्ड बदलें',
    done: 'आपका पासवर्ड बदल दिया गया है। कृपया नए पासवर्ड से लॉग इन करें।',
    login: 'लॉग इन',
    submit: 'लॉग इन करें',
    loginTitle: 'लॉग इन',
    password: 'पासवर्ड',
    spent: 'पासवर्ड रीसेट करने का यह लिंक समाप्त हो चुका है या पहले ही उपयोग हो चुका है। कृपया नया लिंक माँगें।',
    askAgain: 'नया लिंक माँगें',
    signedIn: 'लॉग इन सफल रहा!',
  },
} as const;
type Language = keyof typeof WORDS;

/**
 * The mail's HTML part as a mail program on a machine with Noto Sans Devanagari shows it (this machine has no
 * Devanagari face of its own: the portal ships its own, web/app/fonts.css).
 */
async function showMail(page: Page, html: string) {
  const face = createRequire(import.meta.url).resolve(
    '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2',
  );
  const font = `@font-face{font-family:'Noto Sans Devanagari';src:url(data:font/woff2;base64,${readFileSync(face).toString('base64')}) format('woff2')}`;
  await page.setContent(html.replace('</head>', `<style>${font}</style></head>`));
  await page.evaluate(() => document.fonts.ready);
}

/** Chooses the page's language as the header's toggle keeps it (localStorage), on the portal's named origin. */
async function chooseLanguage(page: Page, language: Language) {
  await page.goto(`${PORTAL}/api/health`);
  await page.evaluate((language) => localStorage.setItem('language', language), language);
}

/**
 * Asks for a link from the login page's "Forgot password?" and checks the confirmation page (with `look`, checks and
 * pictures each page too: the journey does, the later cases do not again).
 */
async function askForLink(page: Page, language: Language, email: string, look = true) {
  const w = WORDS[language];
  const check = async (shot: string) => {
    if (!look) return;
    await checkA11y(page, { moderate: true });
    await screenshot(page, `${shot}-${language}`);
  };
  await page.goto(`${PORTAL}/login`);
  await expectVisible(page.getByRole('heading', { name: w.loginTitle, level: 1 }));
  await expectVisible(page.getByRole('link', { name: w.forgotLink }));
  await check('login-forgot-link');
  await page.getByRole('link', { name: w.forgotLink }).click();
  await expectPath(page, '/forgot-password');
  await expectVisible(page.getByRole('heading', { name: w.forgotTitle, level: 1 }));
  await check('forgot-password');
  await page.getByLabel(w.email, { exact: false }).fill(email);
  await page.getByRole('button', { name: w.send }).click();
  await expectVisible(page.getByRole('status').filter({ hasText: w.sent }));
  await check('forgot-password-sent');
}

/** Opens the mailed link and sets `password` (with `shot`, checks and pictures the page first). */
async function setNewPassword(page: Page, language: Language, link: string, password: string, shot?: string) {
  const w = WORDS[language];
  await page.goto(link);
  await expectVisible(page.getByRole('heading', { name: w.resetTitle, level: 1 }));
  if (shot) {
    await checkA11y(page, { moderate: true });
    await screenshot(page, shot);
  }
  await page.getByLabel(w.newPassword).fill(password);
  await page.getByLabel(w.confirm).fill(password);
  await page.getByRole('button', { name: w.change }).click();
}

/** Signs in on the open login page with `password`, as a person types it, and sees the welcome. */
async function signIn(page: Page, language: Language, email: string, password: string) {
  const w = WORDS[language];
  await expectPath(page, '/login');
  await page.getByLabel(w.email, { exact: false }).first().fill(email);
  await page.getByLabel(w.password, { exact: false }).first().fill(password);
  await page.getByRole('button', { name: w.submit, exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
  await expectVisible(page.getByText(w.signedIn));
}

/** The mailed link's page refuses the link: the alert, and its way to ask for a new one (to the request page). */
async function expectRefused(page: Page, language: Language) {
  const w = WORDS[language];
  await expectVisible(page.getByRole('alert').filter({ hasText: w.spent }));
  await page.getByRole('link', { name: w.askAgain }).click();
  await expectPath(page, '/forgot-password');
  await expectVisible(page.getByRole('heading', { name: w.forgotTitle, level: 1 }));
}

/**
 * Ages the account's unused reset links in the e2e portal's database: made, and expiring, `minutes` earlier (no
 * API makes a link older; the server refuses one whose `expires_at` has passed).
 */
async function ageResetLinks(userId: string, minutes: number) {
  const client = new pg.Client({ connectionString: portal.databaseUrl });
  await client.connect();
  try {
    const res = await client.query(
      `update password_reset_tokens
          set created_at = created_at - make_interval(mins => $2::int),
              expires_at = expires_at - make_interval(mins => $2::int)
        where user_id = $1 and used_at is null`,
      [userId, minutes],
    );
    if (res.rowCount !== 1) throw new Error(`${res.rowCount} unused reset links of ${userId} to age, not 1`);
  } finally {
    await client.end();
  }
}

/** The whole journey in `language`; `user` has chosen that language in the portal. */
async function journey(page: Page, language: Language, user: { email: string; password: string }) {
  const w = WORDS[language];
  await askForLink(page, language, user.email);

  const mail = await waitForMail(user.email, w.mailSubject);
  expect(mail.language).toBe(language);
  const link = linkIn(mail);
  expect(link.startsWith(`${PORTAL}/reset-password?token=`)).toBe(true);
  expect(mail.html).toContain(`href="${link}"`);
  // The mail as a mail program shows its HTML part, for a person to look at.
  await showMail(page, mail.html);
  await screenshot(page, `reset-mail-${language}`);

  await setNewPassword(page, language, link, 'brand-new-secret', `reset-password-${language}`);
  await expectVisible(page.getByRole('status').filter({ hasText: w.done }));
  await checkA11y(page, { moderate: true });
  await screenshot(page, `reset-password-done-${language}`);

  // Sign in with the new password, from the page's own button; the old one is refused.
  await page.getByRole('main').getByRole('link', { name: w.login }).click();
  await signIn(page, language, user.email, 'brand-new-secret');
  expect((await apiCall('POST', '/api/auth/login', null, { email: user.email, password: user.password })).status).toBe(
    401,
  );

  // The same link a second time: refused, with the way to ask for a new one.
  await page.evaluate(() => localStorage.removeItem('token'));
  await setNewPassword(page, language, link, 'yet-another-secret');
  await expectVisible(page.getByRole('alert').filter({ hasText: w.spent }));
  await expectVisible(page.getByRole('link', { name: w.askAgain }));
  await checkA11y(page, { moderate: true });
  await screenshot(page, `reset-password-refused-${language}`);
  await apiLogin(user.email, 'brand-new-secret'); // still the password set by the first use
}

describe('forgot password (issue 32 item 3)', () => {
  it('request, mail, link, new password, sign in; the link refused a second time (English)', async () => {
    const { page } = state;
    const user = await createApprovedUser('employee');
    await waitForMail(user.email, 'Your Lab Portal account is approved'); // the approval was mailed too
    await chooseLanguage(page, 'en');
    await journey(page, 'en', user);
  });

  it('the same in Hindi, for a person who chose Hindi in the portal: the mail comes in Hindi', async () => {
    const { page } = state;
    const user = await createApprovedUser('employee');
    // The person chose Hindi in the portal: the account's language, which their mail is written in (decision 102).
    expect((await apiAs(user).put('/api/users/me/language', { language: 'hi' })).status).toBe(200);
    await chooseLanguage(page, 'hi');

    await journey(page, 'hi', user);
  });

  it.each(['en', 'hi'] as const)(
    'a link refused after its 30 minutes; the old password still signs in (%s)',
    async (language) => {
      const { page } = state;
      const w = WORDS[language];
      const user = await createApprovedUser('employee');
      // The person's language, as the web tells it at sign-in (the Hindi journey above shows that): the mail's.
      expect((await apiAs(user).put('/api/users/me/language', { language })).status).toBe(200);
      await chooseLanguage(page, language);
      await askForLink(page, language, user.email, false);
      const mail = await waitForMail(user.email, w.mailSubject);
      expect(mail.language).toBe(language);
      const link = linkIn(mail);

      // Mailed, then 31 minutes pass.
      await ageResetLinks(user.id, 31);
      await setNewPassword(page, language, link, 'too-late-secret');
      await expectRefused(page, language);

      await page.goto(`${PORTAL}/login`);
      await signIn(page, language, user.email, user.password);
      expect(
        (await apiCall('POST', '/api/auth/login', null, { email: user.email, password: 'too-late-secret' })).status,
      ).toBe(401);
    },
  );

  it('an earlier link refused once a later one has reset the password (English)', async () => {
    const { page } = state;
    const w = WORDS.en;
    const user = await createApprovedUser('employee');
    await chooseLanguage(page, 'en');

    // Two requests, two mails: each link taken from its own mail (the first mail has come before the second request).
    await askForLink(page, 'en', user.email, false);
    const first = linkIn(await waitForMail(user.email, w.mailSubject, { nth: 1 }));
    await askForLink(page, 'en', user.email, false);
    const second = linkIn(await waitForMail(user.email, w.mailSubject, { nth: 2 }));
    expect(second).not.toBe(first);

    // The later link resets the password; signing in with it works.
    await setNewPassword(page, 'en', second, 'second-link-secret');
    await expectVisible(page.getByRole('status').filter({ hasText: w.done }));
    await page.getByRole('main').getByRole('link', { name: w.login }).click();
    await signIn(page, 'en', user.email, 'second-link-secret');

    // The earlier link, still within its 30 minutes and never used, is refused.
    await page.evaluate(() => localStorage.removeItem('token'));
    await setNewPassword(page, 'en', first, 'first-link-secret');
    await expectRefused(page, 'en');

    await apiLogin(user.email, 'second-link-secret'); // still the password set by the later link
    for (const password of ['first-link-secret', user.password]) {
      expect((await apiCall('POST', '/api/auth/login', null, { email: user.email, password })).status).toBe(401);
    }
  });
});
