import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import type { Role } from '#shared/constants.ts';
import type { LoginJson, RegisterInput } from '#shared/schemas/auth.ts';
import type { UserJson } from '#shared/schemas/user.ts';

// e2e helpers in the manner of epic-stack's tests/playwright-utils.ts: data is seeded through the API (the embedded
// database belongs to the server process) and only the journey under test goes through the UI.

export const baseURL = inject('baseURL');
export const admin = inject('admin');
export const labId = inject('labId');
export const groupIds = inject('groupIds');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const e2eDir = path.dirname(new URL(import.meta.url).pathname);
const screenshotDir = path.join(e2eDir, 'screenshots');
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
// Seeding through the API

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
}

/** Calls the API as a signed-in user (or anonymously with no token); never throws on a 4xx. */
export async function apiCall<T = unknown>(method: string, url: string, token?: string | null, body?: unknown) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${baseURL}${url}`, { method, headers, body: payload });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed as T } satisfies ApiResponse<T>;
}

/** A small API client bound to one user's token: `await apiAs(user).get('/api/groups')`. */
export function apiAs(user: { token: string } | null) {
  const token = user?.token ?? null;
  return {
    get: <T = unknown>(url: string) => apiCall<T>('GET', url, token),
    post: <T = unknown>(url: string, body?: unknown) => apiCall<T>('POST', url, token, body),
    put: <T = unknown>(url: string, body?: unknown) => apiCall<T>('PUT', url, token, body),
    del: <T = unknown>(url: string) => apiCall<T>('DELETE', url, token),
  };
}

/** Signs in through the API; throws with the server's message when refused. */
export async function apiLogin(email: string, password: string): Promise<LoginJson> {
  const res = await apiCall<LoginJson & { message?: string }>('POST', '/api/auth/login', null, { email, password });
  if (res.status !== 200) throw new Error(`Login of ${email} failed (${res.status}): ${res.body.message}`);
  return res.body;
}

let adminLogin: Promise<LoginJson> | undefined;
/** The bootstrap administrator of the e2e server (ADMIN_EMAIL / ADMIN_PASSWORD), signed in once per file. */
export async function signedInAdmin(): Promise<SeededUser> {
  adminLogin ??= apiLogin(admin.email, admin.password);
  const { token, user } = await adminLogin;
  return {
    id: user._id,
    email: admin.email,
    password: admin.password,
    name: user.personalDetails.name,
    role: 'admin',
    token,
    user,
  };
}

export interface SeededUser {
  id: string;
  email: string;
  password: string;
  name: string;
  role: Role;
  /** A bearer token from a real login ('' for a user who may not sign in, e.g. pending). */
  token: string;
  user: UserJson;
}

const FIRST_NAMES = ['Aarav', 'Priya', 'Rohan', 'Ananya', 'Vikram', 'Kavya', 'Arjun', 'Meera', 'Siddharth', 'Neha'];
const LAST_NAMES = ['Sharma', 'Iyer', 'Verma', 'Nair', 'Gupta', 'Reddy', 'Chatterjee', 'Singh', 'Menon', 'Joshi'];
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;

/** A registration payload with a unique email; `overrides` replace top-level fields. */
export function registrationFor(
  overrides: Partial<RegisterInput> = {},
): RegisterInput & { email: string; password: string } {
  const tag = randomUUID().slice(0, 8);
  return {
    email: `user-${tag}@lab.test`,
    password: 'secret-123',
    role: 'employee',
    about: '',
    personalDetails: {
      name: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`,
      dob: '1990-05-14',
      mobile: '9876543210',
      address: 'Delhi',
    },
    professionalDetails: {
      designation: "Scientist 'B'",
      cadre: 'DRDS',
      intercom: '4321',
      internetEmail: '',
      dronaEmail: '',
      pis: tag,
      aebasId: '',
    },
    employmentPeriod: { from: '2020-01-01', to: null },
    ...overrides,
  } as RegisterInput & { email: string; password: string };
}

/** Registers a pending user through POST /api/auth/register (token ''; a pending user may not sign in). */
/**
 * A person's name no other test user has: a test that finds someone by name on a list all tests share (the approval
 * list, the staff list) must not meet a namesake from another test.
 */
export function uniquePersonName(): string {
  return `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)} ${randomUUID().slice(0, 6).toUpperCase()}`;
}

export async function createPendingUser(overrides: Partial<RegisterInput> = {}): Promise<SeededUser> {
  const input = registrationFor(overrides);
  const res = await apiCall<{ user: UserJson; message: string }>('POST', '/api/auth/register', null, input);
  if (res.status !== 201) throw new Error(`Registering ${input.email} failed (${res.status}): ${res.body.message}`);
  const user = res.body.user;
  return {
    id: user._id,
    email: input.email,
    password: input.password,
    name: user.personalDetails.name,
    role: user.role,
    token: '',
    user,
  };
}

/** Approves a pending user as the admin would (POST /admin/approve-user/{id}); the role overrides the requested one. */
export async function approveUser(userId: string, role: Exclude<Role, 'pending_director'>, groupId = groupIds[0]!) {
  const res = await apiAs(await signedInAdmin()).post<{ message: string }>(`/admin/approve-user/${userId}`, {
    labId,
    groupId,
    role,
  });
  if (res.status !== 200) throw new Error(`Approving ${userId} failed (${res.status}): ${res.body.message}`);
}

/**
 * A member of staff with `role`, registered and approved through the API into `groupId` (the first seeded group by
 * default), and signed in through the API (so `token` works with apiAs).
 */
export async function createApprovedUser(
  role: Exclude<Role, 'pending_director'> = 'employee',
  groupId?: string,
  overrides: Partial<RegisterInput> = {},
): Promise<SeededUser> {
  const pending = await createPendingUser(overrides);
  await approveUser(pending.id, role, groupId);
  const { token, user } = await apiLogin(pending.email, pending.password);
  return { ...pending, role, token, user };
}

// ---------------------------------------------------------------------------------------------------------------
// Signing in a page

/** Form labels of the login screen (spec §2 Login), in English. */
export const LOGIN_LABELS = { email: 'Email', password: 'Password', submit: 'Login' } as const;

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
    await page.getByLabel(LOGIN_LABELS.email, { exact: false }).first().fill(user.email);
    await page.getByLabel(LOGIN_LABELS.password, { exact: false }).first().fill(user.password);
    await page.getByRole('button', { name: LOGIN_LABELS.submit, exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    if (to !== '/') await page.goto(to);
    return;
  }
  const login = await apiLogin(user.email, user.password);
  // Any page of the portal's origin gives access to its localStorage; the health answer is the lightest.
  await page.goto('/api/health');
  await page.evaluate(({ token, user }) => {
    localStorage.setItem('token', token);
    localStorage.setItem('user', JSON.stringify(user));
    localStorage.setItem('role', user.role);
    localStorage.setItem('userId', user._id);
  }, login);
  await page.goto(to);
}

// ---------------------------------------------------------------------------------------------------------------
// Accessibility and screenshots

/** axe-core's own script, put into a page once per document (it stays through the app's own page changes). */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page as it is now, from `axe.run` in the page itself. Not @axe-core/playwright: its
 * analyze() injects the whole script again and opens a blank page to finish every run, about a second a check
 * against 0.2 s for the run itself (measured on the lab home and the site pages); the portal has no frames to visit.
 */
async function runAxe(page: Page, tags: string[]): Promise<AxeResults['violations']> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const options: RunOptions = { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] };
  return page.evaluate((options) => {
    const axe = (window as unknown as { axe: { run: (c: Document, o: RunOptions) => Promise<AxeResults> } }).axe;
    return axe.run(document, options).then((r) => r.violations);
  }, options);
}

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules) on the page as it is now and fails on any serious or critical
 * violation, naming the rule, the elements and how to fix it. `moderate: true` (GIGW 3.0, issue 16) adds axe's
 * best-practice rules (heading order, unique landmarks, one banner) and fails on moderate findings too.
 */
export async function checkA11y(page: Page, opts: { moderate?: boolean } = {}): Promise<void> {
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', ...(opts.moderate ? ['best-practice'] : [])];
  const impacts = opts.moderate ? ['moderate', 'serious', 'critical'] : ['serious', 'critical'];
  const findings = async () => {
    // A toast fading in or out is half transparent, and axe would measure its contrast mid-fade: let CSS transitions
    // finish first (the News Flash's endless CSS animation is not a transition, so it does not hold this up).
    await page
      .waitForFunction(
        () => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => {});
    // A list still loading its next page is dimmed (aria-busy): measure it once the new rows are in.
    await page
      .waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, { timeout: 10_000 })
      .catch(() => {});
    return (await runAxe(page, tags)).filter((v) => impacts.includes(v.impact ?? ''));
  };
  // A toast that starts to close while axe runs is measured mid-fade (seen once: #e3e3e3 on white): what is found is
  // measured once more, and only what is still there counts.
  let bad = await findings();
  if (bad.length) bad = await findings();
  if (!bad.length) return;
  const lines = bad.map((v) => {
    const nodes = v.nodes
      .slice(0, 5)
      .map((n) => `      ${n.target.join(' ')}${n.failureSummary ? `: ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`)
      .join('\n');
    return `  [${v.impact}] ${v.id}: ${v.help} (${v.nodes.length} element(s), ${v.helpUrl})\n${nodes}`;
  });
  throw new Error(`Accessibility violations on ${new URL(page.url()).pathname}:\n${lines.join('\n')}`);
}

export const SCREENSHOT_WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** Writes e2e/screenshots/<name>-1280.png and <name>-390.png (full page, animations stopped), then restores the viewport. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  const original = page.viewportSize();
  try {
    for (const size of SCREENSHOT_WIDTHS) {
      await page.setViewportSize(size);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await page.screenshot({
        path: path.join(screenshotDir, `${name}-${size.width}.png`),
        fullPage: true,
        animations: 'disabled',
      });
    }
  } finally {
    if (original) await page.setViewportSize(original);
  }
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
