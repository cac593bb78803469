import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { CHROMIUM_PATH, expectHidden, expectPath, expectVisible } from './fixtures.ts';
import { type PortalServer, startPortalServer } from './global-setup.ts';

// Decision 019 (GIGW 3.0, WCAG 2.2.1): the session-timeout warning. This file starts its own server with a 118-second
// sign-in (JWT_EXPIRES_IN), so the warning opens at half-time (59 s; two minutes before expiry for real sign-ins) and
// the sign-in ends 59 s later. "Stay signed in" gets a fresh token from POST /api/auth/refresh; at expiry the person is
// signed out with a message and, after signing in again, comes back to the page they were on.
// The page's clock is a test clock (Playwright's context.clock, decision 128): it runs with real time, and the test
// jumps it to the warning and to the expiry instead of waiting for them. The server's clock is the real one, so before
// the page gets a token from the server (the refresh, a new sign-in) the page's wall clock is set back to real time.

// Half of it is the real time the page has, once the test clock is at the warning, to check the dialog, take its
// screenshots and answer it: the page's clock runs on from the jump (decision 128). 24 s left 12, which a loaded
// machine's axe check and screenshots used up (the sign-in ended under the click).
const LIFETIME_S = 118;
const admin = inject('admin');
let server: PortalServer;
let runDir: string;
let browser: Browser;

beforeAll(async () => {
  runDir = mkdtempSync(path.join(os.tmpdir(), 'lp-e2e-session-'));
  server = await startPortalServer({
    dataDir: path.join(runDir, 'data'),
    webRoot: inject('webRoot'),
    logFile: path.join(runDir, 'server.log'),
    env: { JWT_EXPIRES_IN: `${LIFETIME_S}s` },
  });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(runDir, { recursive: true, force: true });
});

const expiryOf = (page: Page) =>
  page.evaluate(() => {
    const token = localStorage.getItem('token') ?? '';
    return (JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp: number }).exp;
  });

async function signIn(page: Page) {
  await page.getByLabel('Email', { exact: false }).first().fill(admin.email);
  await page.getByLabel('Password', { exact: false }).first().fill(admin.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/** Jumps the page's clock to half a second past `atMs` (its wall clock), firing the timers due by then. */
async function jumpTo(page: Page, atMs: number) {
  const now = await page.evaluate(() => Date.now());
  await page.clock.fastForward(Math.max(0, atMs - now) + 500);
}
/** To the stored sign-in's warning (half-time, 59 s before its end) or to its end. */
const toWarning = async (page: Page) => jumpTo(page, (await expiryOf(page)) * 1000 - (LIFETIME_S * 1000) / 2);
const toExpiry = async (page: Page) => jumpTo(page, (await expiryOf(page)) * 1000);
/** The page's wall clock back to the server's (real) time, before the page is given a new token. */
const realTime = (page: Page) => page.clock.setSystemTime(Date.now());

const dialog = (page: Page, name = 'Your sign-in is about to end') => page.getByRole('dialog', { name });

describe('session-timeout warning (item 5)', () => {
  it('extends the session, then at expiry signs out with a message and returns to the page after signing in', async () => {
    const context = await browser.newContext({
      baseURL: server.baseURL,
      viewport: { width: 1280, height: 800 },
      locale: 'en-IN',
      timezoneId: 'Asia/Kolkata',
    });
    await context.clock.install();
    const page = await context.newPage();
    // A guarded page sends the visitor to /login, and the login comes back to it.
    await page.goto('/admin/logs');
    await expectPath(page, '/login');
    await signIn(page);
    await expectPath(page, '/admin/logs');
    const firstExpiry = await expiryOf(page);

    // The warning opens before the end, with both choices; axe-clean.
    await toWarning(page);
    await expectVisible(dialog(page));
    await expectVisible(dialog(page).getByText(/you will be signed out in 0:\d\d/));
    await checkA11y(page);
    await screenshot(page, 'session-timeout');
    const oldToken = await page.evaluate(() => localStorage.getItem('token'));
    // A token's times are whole seconds: the refreshed one expires later only if it is signed in a later second than
    // the first (at most a second's wait, and none when the checks above took longer).
    await expect
      .poll(() => Date.now(), { timeout: 5_000 })
      .toBeGreaterThanOrEqual((firstExpiry - LIFETIME_S + 1) * 1000);
    await realTime(page);
    await dialog(page).getByRole('button', { name: 'Stay signed in' }).click();
    await expectHidden(dialog(page));
    expect(await expiryOf(page)).toBeGreaterThan(firstExpiry);
    // The refresh ended the old session: its token is refused, and the download cookie is the new one's.
    const me = (headers: Record<string, string> = {}) => context.request.get('/api/auth/me', { headers });
    expect((await me({ authorization: `Bearer ${oldToken}` })).status()).toBe(401);
    expect((await me()).status()).toBe(200);
    await expectPath(page, '/admin/logs');

    // The extended sign-in warns again; this time nobody answers, and at expiry the person is signed out.
    await toWarning(page);
    await expectVisible(dialog(page));
    await toExpiry(page);
    await expectPath(page, '/login');
    await expectVisible(page.getByText('Your session has expired. Please sign in again.')).catch(
      async (err: unknown) => {
        const state = await page.evaluate(() => JSON.stringify(history.state));
        throw new Error(`No expiry message; history state ${state}`, { cause: err });
      },
    );
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await checkA11y(page);
    await realTime(page);
    await signIn(page);
    await expectPath(page, '/admin/logs');
    await context.close();
  }, 150_000);

  it('"Sign out" in the warning ends the session at once (in Hindi too)', async () => {
    const context = await browser.newContext({ baseURL: server.baseURL, viewport: { width: 390, height: 844 } });
    await context.clock.install();
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'हिन्दी' }).first().click();
    await page.waitForFunction(() => document.documentElement.lang === 'hi');
    const form = page.getByRole('main');
    await form.locator('input[type="email"]').fill(admin.email);
    await form.locator('input[type="password"]').fill(admin.password);
    await form.locator('button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname !== '/login');
    const warning = dialog(page, 'आपका साइन-इन समाप्त होने वाला है');
    await toWarning(page);
    await expectVisible(warning);
    await checkA11y(page);
    await screenshot(page, 'session-timeout-hi');
    await warning.getByRole('button', { name: 'साइन आउट' }).click();
    await expectPath(page, '/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await context.close();
  }, 90_000);
});
