import { randomUUID } from 'node:crypto';

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

import type { GroupJson } from '#shared/schemas/group.ts';

import { checkA11y } from './a11y.ts';
import { expectVisible, groupIds, keepLanguage, launchBrowser, newContext, signInAs } from './fixtures.ts';
import { apiAs, createApprovedUser, type SeededUser, signedInAdmin } from './seed.ts';

// Axe finds nothing critical, serious or moderate on any page, in both languages and both
// themes: each route once in each language, and once in each theme (half the routes of a test, see `inHalf`). The walk of every route of web/app/router.tsx as the role that may see it, shared by
// e2e/gigw-pages.e2e.ts (visitor and employee) and e2e/gigw-admin-pages.e2e.ts (associate director, director, admin).
// One page for each of those files, one sign-in per role; pages are changed inside the app (no reload) so the walk
// stays fast.

export type Language = 'en' | 'hi';
export type Contrast = 'normal' | 'high';
export const COMBINATIONS: [Language, Contrast][] = [
  ['en', 'normal'],
  ['hi', 'normal'],
  ['en', 'high'],
  ['hi', 'high'],
];

const PDF = new Blob(
  [
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  ],
  { type: 'application/pdf' },
);

let browser: Browser;
let context: BrowserContext;
export let page: Page;
export let cast: {
  group: GroupJson;
  employee: SeededUser;
  lead: SeededUser;
  director: SeededUser;
  admin: SeededUser;
};

/** A group with a member, its associate director, a notice, a circular, a project and an office member. */
export async function seed() {
  const tag = randomUUID().slice(0, 6);
  const admin = await signedInAdmin();
  const [employee, lead, director] = await Promise.all([
    createApprovedUser('employee', groupIds[0]),
    createApprovedUser('associate_director', groupIds[1]),
    createApprovedUser('director', groupIds[1]),
  ]);
  const created = await apiAs(admin).post<GroupJson>('/api/groups', {
    name: `Walk Group ${tag}`,
    description: 'Walked by axe.',
    about: 'A group with one of everything.',
    vision: 'Safe stores.',
    mission: 'Measure and advise.',
    // Its associate director is one of its members: a leader of another group manages nothing here (decision 030).
    employees: [employee.id, lead.id],
  });
  expect(created.status).toBe(201);
  const group = created.body;
  const as = apiAs(admin);
  const entry = new FormData();
  entry.set('user', lead.id);
  entry.set('from', '2025-01-01');
  expect((await as.post(`/api/groups/${group._id}/assistant-director-history`, entry)).status).toBe(201);
  const item = (name: string, validUntil?: string) => {
    const form = new FormData();
    form.set('name', name);
    form.set('description', `${name}: details.`);
    if (validUntil) form.set('validUntil', validUntil);
    form.set('file', PDF, `${name.toLowerCase().replaceAll(' ', '-')}.pdf`);
    return form;
  };
  for (const [url, form] of [
    [`/api/groups/${group._id}/notices`, item('Fit test', '2099-12-31')],
    [`/api/groups/${group._id}/notices`, item('Old drill', '2024-01-15')],
    [`/api/groups/${group._id}/circulars`, item('Store rules')],
    [`/api/group-files/${group._id}/projects`, item('Cone study')],
  ] as const)
    expect((await as.post(url, form)).status).toBe(201);
  const office = await as.post(`/api/groups/${group._id}/office`, {
    name: 'Sunil Verma',
    designation: 'Technical Officer',
    contactNumber: '011-2390 7123',
    email: 'sunil@lab.test',
  });
  expect(office.status).toBe(201);
  const update = await as.put(`/api/groups/${group._id}`, {
    name: group.name,
    GroupHistoryDetails: 'Formed in 1998.',
    contactInfo: [{ type: 'Email', label: 'Office', value: 'walk@lab.test' }],
  });
  expect(update.status).toBe(200);
  return { group, employee, lead, director, admin };
}

/** Findings of the current test: every page is checked, and the test fails at its end with all of them. */
let found: string[] = [];

/** Call at the top of a walk's test file: one page for the file, the cast seeded, each test's findings reported. */
export function useAxeWalk() {
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newContext(browser);
    page = await context.newPage();
    cast = await seed();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  beforeEach(() => {
    found = [];
  });
  afterEach(() => {
    if (found.length) throw new Error(`axe found ${found.length} page(s) with violations:\n\n${found.join('\n\n')}`);
  });
}

/** Chooses language and contrast as the header does (localStorage) and reloads once. */
export async function prefer(language: Language, contrast: Contrast) {
  await keepLanguage(page, language);
  await page.evaluate((contrast) => localStorage.setItem('contrast', contrast), contrast);
  await page.reload();
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
}

/**
 * Opens `to` inside the app (the router follows history, so nothing reloads), and waits until it has loaded. When the
 * path changes, the heading of the page being left does not count: the router keeps the old page on screen while the
 * new one's code loads, and a redirect (/admin/groups/{id} → /admin/group/{id}) shows nothing for a moment in between.
 */
export async function open(to: string) {
  await page.evaluate((to) => {
    const leaving = new URL(to, window.location.href).pathname !== window.location.pathname;
    (window as { staleHeading?: Element | null }).staleHeading = leaving ? document.querySelector('main h1') : null;
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
  await settle();
}

/** The page has its own heading (not the one of the page `open` left) and no loader is spinning. */
export async function settle() {
  try {
    await page.waitForFunction(
      () => {
        const heading = document.querySelector('main h1');
        const stale = (window as { staleHeading?: Element | null }).staleHeading;
        return heading !== null && heading !== stale && heading.getClientRects().length > 0;
      },
      undefined,
      { timeout: 15_000 },
    );
  } catch (err) {
    throw new Error(`Expected the heading of ${page.url()} within 15 s`, { cause: err });
  }
  await page
    .waitForFunction(() => !document.querySelector('main .mantine-Loader-root, main [data-loading]'), undefined, {
      timeout: 10_000,
    })
    .catch(() => {});
}

/** axe at "moderate", the page named in the finding. */
export async function check(label: string) {
  try {
    await checkA11y(page, { moderate: true });
  } catch (err) {
    found.push(`${label}: ${(err as Error).message}`);
  }
}

/**
 * Whether the `i`th page of a walk is checked in this language and theme. Each page is checked twice, not four times:
 * once in English and once in Hindi, in the normal theme in one of them and in high contrast in the other, the pages
 * alternating which (decision 127). So every page is checked in both languages and both themes, and a test of the
 * four combinations walks half its pages; what a theme changes (colours) and what a language changes (text, fonts)
 * are each seen on every page.
 */
export const inHalf = (i: number, language: Language, contrast: Contrast) =>
  ((i % 2 === 0) === (language === 'en')) === (contrast === 'normal');

/**
 * Walks its half of `routes` (`inHalf`) in one language and theme, then runs `extra` (menus, dialogs, tabs) while the
 * theme is on, when `extra` is in this half as the walk's last page.
 */
export async function walk(routes: string[], language: Language, contrast: Contrast, extra?: () => Promise<void>) {
  await prefer(language, contrast);
  for (const to of routes.filter((_, i) => inHalf(i, language, contrast))) {
    const t0 = Date.now();
    await open(to);
    const t1 = Date.now();
    await check(`${to} (${language}, ${contrast})`);
    // E2E_TIMING=1 prints how long each page took to open and to check (the walk is most of this file's time).
    if (process.env.E2E_TIMING) console.log(`[timing] ${to} open ${t1 - t0} ms, axe ${Date.now() - t1} ms`);
  }
  if (inHalf(routes.length, language, contrast)) await extra?.();
}

/** Clicks each tab of the first tab list in main and checks the page with that tab open. */
export async function eachTab(label: string) {
  const list = page.locator('main [role="tablist"]').first();
  await expectVisible(list); // the tabs come with the record (Edit Group shows them once it knows you may edit)
  const tabs = list.getByRole('tab');
  const count = await tabs.count();
  expect(count).toBeGreaterThan(1);
  for (let i = 0; i < count; i++) {
    await tabs.nth(i).click();
    await settle();
    await check(`${label}, tab ${i + 1}`);
  }
}

/** Opens a navigation dropdown by its name, checks the page with it open, and closes it. */
export async function openMenu(name: string, label: string) {
  await page.getByRole('navigation').first().getByRole('button', { name, exact: true }).click();
  await expectVisible(page.getByRole('menu'));
  await check(`${label} menu open`);
  await page.keyboard.press('Escape');
}

export const VISITOR_ROUTES = [
  '/',
  '/login',
  '/register',
  '/pending-approval',
  '/labs',
  '/directorprofile',
  '/search?q=group',
  '/help',
  '/feedback',
  '/accessibility',
  '/sitemap',
  '/terms',
  '/privacy',
  '/archive',
  '/no-such-page',
];
export const LAB_TABS = [
  'visionMission',
  'director',
  'office',
  'roleHonour',
  'history',
  'personnel',
  'notices',
  'products',
  'contact',
];
export const GROUP_TABS = [
  'about',
  'visionMission',
  'leader',
  'office',
  'roleHonour',
  'history',
  'members',
  'notices',
  'products',
  'contact',
];

/** Who the page is signed in as: each role signs in once, for its four languages and themes. */
let signedInAs: SeededUser | null | undefined;
export async function as(user: SeededUser | null, to: string) {
  if (signedInAs === user) return;
  if (user) await signInAs(page, user, { to });
  else {
    if (!page.url().startsWith('http')) await page.goto('/');
    await page.evaluate(() => localStorage.clear());
  }
  signedInAs = user;
}
