import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';

import type { SessionJson } from '#shared/schemas/auth.ts';

import { portal } from './portal.ts';
import { apiAs, apiLogin, type SeededUser } from './seed.ts';

// e2e helpers in the manner of epic-stack's tests/playwright-utils.ts: data is seeded through the API (the embedded
// database belongs to the server process) and only the journey under test goes through the UI.
// The seeding helpers are in e2e/seed.ts, the accessibility checks and screenshots in e2e/a11y.ts.

export const baseURL = portal.baseURL;
export const admin = inject('admin');
export const labId = portal.labId;
export const groupIds = portal.groupIds;

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const e2eDir = path.dirname(new URL(import.meta.url).pathname);
const failureDir = path.join(e2eDir, '..', 'test-results', 'e2e-failures');

// ---------------------------------------------------------------------------------------------------------------
// Browser

/** Debian's Chromium, headless, with the flags this machine's closed network needs (never a downloaded browser). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh context (empty storage, its own cookies) at a desktop width, in Indian English and time. */
export async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
  });
  context.setDefaultTimeout(15_000); // a click or fill that cannot happen fails fast, with its reason
  context.setDefaultNavigationTimeout(30_000);
  return context;
}

export interface BrowserState {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Uncaught errors thrown in the page during the current test. */
  pageErrors: Error[];
}

/**
 * Call at the top of a test file: one Chromium for the file, a fresh context and page for each test (so no login
 * leaks between tests). A failing test leaves a screenshot in test-results/e2e-failures.
 */
export function useBrowser(): BrowserState {
  const state = { pageErrors: [] } as unknown as BrowserState;
  beforeAll(async () => {
    state.browser = await launchBrowser();
  });
  beforeEach(async () => {
    state.context = await newContext(state.browser);
    state.page = await state.context.newPage();
    state.pageErrors = [];
    state.page.on('pageerror', (err) => state.pageErrors.push(err));
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && state.page && !state.page.isClosed()) {
      mkdirSync(failureDir, { recursive: true });
      const name = ctx.task.name
        .replace(/[^a-z0-9]+/gi, '-')
        .toLowerCase()
        .slice(0, 80);
      await state.page.screenshot({ path: path.join(failureDir, `${name}.png`), fullPage: true }).catch(() => {});
    }
    await state.context?.close();
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  return state;
}

// ---------------------------------------------------------------------------------------------------------------
// Signing in a page

/** Form labels of the login screen (spec §2 Login), in English. */
export const LOGIN_LABELS = { email: 'Email', password: 'Password', submit: 'Login' } as const;

/**
 * The portal opens in the account's chosen language at sign-in (decision 102): a test signing a person in on a page
 * of one language has a person who chose another choose this one first (as they would have, in the portal), so an
 * account a previous test switched keeps no hold on this one. `e2e/language.e2e.ts` shows the account winning.
 */
async function chooseAccountLanguage(page: Page, login: SessionJson): Promise<void> {
  const language = await page.evaluate(() => {
    // The person signing in pressed no language button in this tab: a switch made before (a visitor's, an earlier
    // test's) is not theirs to send at sign-in (web/lib/language-sync.ts).
    sessionStorage.removeItem('languageChoice');
    return localStorage.getItem('language') === 'hi' ? 'hi' : 'en';
  });
  if (!login.user.languageChosen || login.user.language === language) return;
  const res = await apiAs(login).put('/api/users/me/language', { language });
  if (res.status !== 200) throw new Error(`Could not set the language of ${login.user.email} (${res.status})`);
  login.user.language = language;
}

/**
 * Shows the portal in `language` from the next page load, as the header's button would: in this browser, and, for a
 * signed-in person whose account chose another language, as their account's choice too (decision 102: the account's
 * choice wins at each page load). The page must be on the portal's origin.
 */
export async function keepLanguage(page: Page, language: 'en' | 'hi'): Promise<void> {
  const status = await page.evaluate(async (language) => {
    localStorage.setItem('language', language);
    const token = localStorage.getItem('token');
    const text = localStorage.getItem('user');
    if (!token || !text) return 200;
    const user = JSON.parse(text) as { language: string; languageChosen?: boolean };
    if (!user.languageChosen || user.language === language) return 200;
    const res = await fetch('/api/users/me/language', {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ language }),
    });
    localStorage.setItem('user', JSON.stringify({ ...user, language }));
    return res.status;
  }, language);
  if (status !== 200) throw new Error(`Could not choose ${language} for the signed-in account (${status})`);
}

/**
 * Signs `page` in as `user`. `via: 'storage'` (default) stores the login as web/lib/auth-storage.ts does, without
 * touching the UI; `via: 'ui'` fills the login form. Then opens `to` (default /).
 */
export async function signInAs(
  page: Page,
  user: SeededUser,
  opts: { via?: 'storage' | 'ui'; to?: string } = {},
): Promise<void> {
  const to = opts.to ?? '/';
  if (opts.via === 'ui') {
    await page.goto('/login');
    await chooseAccountLanguage(page, await apiLogin(user.email, user.password));
    await page.getByLabel(LOGIN_LABELS.email, { exact: false }).first().fill(user.email);
    await page.getByLabel(LOGIN_LABELS.password, { exact: false }).first().fill(user.password);
    await page.getByRole('button', { name: LOGIN_LABELS.submit, exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    if (to !== '/') await page.goto(to);
    return;
  }
  const login = await apiLogin(user.email, user.password);
  // As the login page's answer does: the token in the page's storage, and the download cookie that signs in the file
  // links a page follows (decision 003).
  await page
    .context()
    .addCookies([{ name: 'lp_token', value: login.token, url: baseURL, httpOnly: true, sameSite: 'Strict' }]);
  // Any page of the portal's origin gives access to its localStorage; the health answer is the lightest.
  await page.goto('/api/health');
  await chooseAccountLanguage(page, login);
  await page.evaluate(({ token, user }) => {
    localStorage.setItem('token', token);
    localStorage.setItem('user', JSON.stringify(user));
    localStorage.setItem('role', user.role);
    localStorage.setItem('userId', user._id);
  }, login);
  await page.goto(to);
}

// ---------------------------------------------------------------------------------------------------------------
// Waiting for what a person would see (vitest's expect does not wait; these do)

/** Waits until the (first) element is visible; fails with what was expected. */
export async function expectVisible(locator: Locator, timeout = 15_000): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch (err) {
    throw new Error(`Expected to see ${String(locator)} within ${timeout / 1000} s`, { cause: err });
  }
}

/** Waits until no matching element is visible. */
export async function expectHidden(locator: Locator, timeout = 15_000): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'hidden', timeout });
  } catch (err) {
    throw new Error(`Expected ${String(locator)} to disappear within ${timeout / 1000} s`, { cause: err });
  }
}

/** Waits until the page's path is `pathname`. */
export async function expectPath(page: Page, pathname: string, timeout = 15_000): Promise<void> {
  try {
    await page.waitForURL((url) => url.pathname === pathname, { timeout });
  } catch (err) {
    throw new Error(`Expected to be on ${pathname}, but the page is at ${new URL(page.url()).pathname}`, {
      cause: err,
    });
  }
}

/** Switches the portal's language with the header's button and waits until the page is in it. */
export async function switchLanguage(page: Page, language: 'hi' | 'en'): Promise<void> {
  await page.getByRole('button', { name: language === 'hi' ? 'हिन्दी' : 'English' }).click();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
}
