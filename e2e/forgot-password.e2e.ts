import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { baseURL, expectPath, expectVisible, useBrowser } from './fixtures.ts';
import { linkIn, waitForMail } from './mail.ts';
import { apiCall, apiLogin, createApprovedUser } from './seed.ts';

// Forgot password (issue 32 item 3, decision 077) in a browser, with the shared e2e server mailing through a real SMTP
// server (e2e/global-setup.ts): the login page's link, the request, the mail, its link, a new password, signing in
// with it; the link refused a second time. English and Hindi, axe-clean, 1280 and 390 px.

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

/** Asks for a link from the login page's "Forgot password?" and checks the confirmation page. */
async function askForLink(page: Page, language: Language, email: string) {
  const w = WORDS[language];
  await page.goto(`${PORTAL}/login`);
  await expectVisible(page.getByRole('heading', { name: w.loginTitle, level: 1 }));
  await expectVisible(page.getByRole('link', { name: w.forgotLink }));
  await checkA11y(page, { moderate: true });
  await screenshot(page, `login-forgot-link-${language}`);
  await page.getByRole('link', { name: w.forgotLink }).click();
  await expectPath(page, '/forgot-password');
  await expectVisible(page.getByRole('heading', { name: w.forgotTitle, level: 1 }));
  await checkA11y(page, { moderate: true });
  await screenshot(page, `forgot-password-${language}`);
  await page.getByLabel(w.email, { exact: false }).fill(email);
  await page.getByRole('button', { name: w.send }).click();
  await expectVisible(page.getByRole('status').filter({ hasText: w.sent }));
  await checkA11y(page, { moderate: true });
  await screenshot(page, `forgot-password-sent-${language}`);
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
  await expectPath(page, '/login');
  await page.getByLabel(w.email, { exact: false }).first().fill(user.email);
  await page.getByLabel(w.password, { exact: false }).first().fill('brand-new-secret');
  await page.getByRole('button', { name: w.submit, exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
  await expectVisible(page.getByText(w.signedIn));
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
    // Signed in on a page in Hindi, the web tells the server the person's language (PUT /api/users/me/language).
    await chooseLanguage(page, 'hi');
    const { token, user: json } = await apiLogin(user.email, user.password);
    await page.evaluate(
      ({ token, json }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('user', JSON.stringify(json));
        localStorage.setItem('role', json.role);
        localStorage.setItem('userId', json._id);
      },
      { token, json },
    );
    const told = page.waitForResponse(
      (res) => res.url().endsWith('/api/users/me/language') && res.request().method() === 'PUT',
    );
    await page.goto(`${PORTAL}/`);
    expect(JSON.parse((await told).request().postData() ?? '{}')).toEqual({ language: 'hi' });
    await page.evaluate(() => ['token', 'user', 'role', 'userId'].forEach((key) => localStorage.removeItem(key)));

    await journey(page, 'hi', user);
  });
});
