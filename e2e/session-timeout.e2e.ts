import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { CHROMIUM_PATH, expectHidden, expectPath, expectVisible } from './fixtures.ts';
import { type PortalServer, startPortalServer } from './global-setup.ts';

// Decision 019 (GIGW 3.0, WCAG 2.2.1): the session-timeout warning. This file starts its own server with a 24-second
// sign-in (JWT_EXPIRES_IN), so the warning opens at half-time (12 s; two minutes before expiry for real sign-ins) and
// the sign-in ends 12 s later. "Stay signed in" gets a fresh token from POST /api/auth/refresh; at expiry the person is
// signed out with a message and, after signing in again, comes back to the page they were on.

const LIFETIME_S = 24;
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
}, 120_000);

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

const dialog = (page: Page, name = 'Your sign-in is about to end') => page.getByRole('dialog', { name });

describe('session-timeout warning (item 5)', () => {
  it('extends the session, then at expiry signs out with a message and returns to the page after signing in', async () => {
    const context = await browser.newContext({
      baseURL: server.baseURL,
      viewport: { width: 1280, height: 800 },
      locale: 'en-IN',
      timezoneId: 'Asia/Kolkata',
    });
    const page = await context.newPage();
    // A guarded page sends the visitor to /login, and the login comes back to it.
    await page.goto('/admin/logs');
    await expectPath(page, '/login');
    await signIn(page);
    await expectPath(page, '/admin/logs');
    const firstExpiry = await expiryOf(page);

    // The warning opens before the end, with both choices; axe-clean.
    await expectVisible(dialog(page), LIFETIME_S * 1000);
    await expectVisible(dialog(page).getByText(/you will be signed out in 0:\d\d/));
    await checkA11y(page);
    await screenshot(page, 'session-timeout');
    const oldToken = await page.evaluate(() => localStorage.getItem('token'));
    await dialog(page).getByRole('button', { name: 'Stay signed in' }).click();
    await expectHidden(dialog(page));
    expect(await expiryOf(page)).toBeGreaterThan(firstExpiry);
    // The refresh ended the old session: its token is refused, and the download cookie is the new one's.
    const me = (headers: Record<string, string> = {}) => context.request.get('/api/auth/me', { headers });
    expect((await me({ authorization: `Bearer ${oldToken}` })).status()).toBe(401);
    expect((await me()).status()).toBe(200);
    await expectPath(page, '/admin/logs');

    // The extended sign-in warns again; this time nobody answers, and at expiry the person is signed out.
    await expectVisible(dialog(page), LIFETIME_S * 1000);
    await expectPath(page, '/login', LIFETIME_S * 1000);
    await expectVisible(page.getByText('Your session has expired. Please sign in again.')).catch(
      async (err: unknown) => {
        const state = await page.evaluate(() => JSON.stringify(history.state));
        throw new Error(`No expiry message; history state ${state}`, { cause: err });
      },
    );
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await checkA11y(page);
    await signIn(page);
    await expectPath(page, '/admin/logs');
    await context.close();
  }, 150_000);

  it('"Sign out" in the warning ends the session at once (in Hindi too)', async () => {
    const context = await browser.newContext({ baseURL: server.baseURL, viewport: { width: 390, height: 844 } });
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
    await expectVisible(warning, LIFETIME_S * 1000);
    await checkA11y(page);
    await screenshot(page, 'session-timeout-hi');
    await warning.getByRole('button', { name: 'साइन आउट' }).click();
    await expectPath(page, '/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await context.close();
  }, 90_000);
});
