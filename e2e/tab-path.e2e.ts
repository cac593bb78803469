import path from 'node:path';

import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { GroupJson } from '#shared/schemas/group.ts';

import { checkA11y, SCREENSHOT_WIDTHS } from './a11y.ts';
import { expectPath, expectVisible, labId, signInAs, useBrowser } from './fixtures.ts';
import { apiAs, createApprovedUser, inDays, type SeededUser, signedInAdmin, tinyPdf } from './seed.ts';

// Decision 100: a keyboard user who does not know the skip links. Each of the five most common tasks is done with Tab
// alone (Enter to follow a link or press a button), counting every Tab until the focus is on the task's target, found
// by its role and name. The counts are printed; the task from the home page to Upload Letter, signing in on the way,
// must take at most GOAL_TABS.

const state = useBrowser();
/** Past this many Tabs in one task the target is taken as unreachable. */
const LIMIT = 150;
const GOAL_TABS = 30;

type Role = Parameters<Page['getByRole']>[0];
interface Target {
  role: Role;
  name: string | RegExp;
}

/** Counts Tab presses; `to` presses Tab until the focused element is one of `target`'s matches. */
function tabs(page: Page, task: string) {
  let count = 0;
  const focusedIs = (target: Locator) =>
    target.evaluateAll((elements) => elements.some((el) => el === document.activeElement));
  const to = async ({ role, name }: Target) => {
    const target = page.getByRole(role, { name, exact: typeof name === 'string' });
    for (;;) {
      count += 1;
      expect(count, `${task}: ${role} "${String(name)}" not reached within ${LIMIT} Tab presses`).toBeLessThanOrEqual(
        LIMIT,
      );
      await page.keyboard.press('Tab');
      if (await focusedIs(target)) return;
    }
  };
  const press = async () => {
    count += 1;
    await page.keyboard.press('Tab');
  };
  return { to, press, count: () => count };
}

/** Waits until the focus has settled on the page after a client-side move (the page's h1, or the top of the page). */
async function focusSettled(page: Page) {
  await page.waitForFunction(
    () => {
      const el = document.activeElement;
      return !!el && (el.tagName === 'H1' || el.id === 'page-top');
    },
    undefined,
    { timeout: 10_000 },
  );
}

/** On a narrow screen the navigation is behind "Open navigation": it opens and takes the focus to its first link. */
async function navigationOpened(page: Page) {
  await page.waitForFunction(
    () => {
      const drawer = document.getElementById('mobile-navigation');
      if (!drawer?.contains(document.activeElement)) return false;
      return document.getAnimations().every((a) => {
        const target = (a.effect as KeyframeEffect | null)?.target;
        return a.playState !== 'running' || !target || !drawer.contains(target);
      });
    },
    undefined,
    { timeout: 10_000 },
  );
}

/** Tabs to a link of the navigation: on a narrow screen through "Open navigation" first. */
async function tabToNavigation(page: Page, keys: ReturnType<typeof tabs>, link: Target) {
  if ((page.viewportSize()?.width ?? 1280) < 992) {
    await keys.to({ role: 'button', name: 'Open navigation' });
    await page.keyboard.press('Enter');
    await navigationOpened(page);
    const first = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    const target = page.getByRole(link.role, { name: link.name, exact: typeof link.name === 'string' });
    // The opened navigation put the focus on its first link: that may be the target itself.
    if (await target.evaluateAll((els) => els.some((el) => el === document.activeElement))) return;
    expect(first).not.toBe('');
  }
  await keys.to(link);
}

/** A group of its own for `member`, so that a circular asked of it reaches no one else on the e2e portal. */
async function ownGroup(member: SeededUser) {
  const admin = apiAs(await signedInAdmin());
  const created = await admin.post<GroupJson>('/api/groups', {
    name: `Tab path ${member.id.slice(0, 8)}`,
    description: 'Seeded by tab-path.e2e.ts.',
    employees: [member.id],
  });
  expect(created.status).toBe(201);
  return created.body._id;
}

/** A lab circular that `groupId` must acknowledge within a week. */
async function circularFor(groupId: string, name: string) {
  const form = new FormData();
  form.set('name', name);
  form.set('description', `${name}: seeded by tab-path.e2e.ts.`);
  form.set('requiresAcknowledgement', 'true');
  form.set('acknowledgeBy', inDays(7));
  form.set('audienceScope', 'groups');
  form.set('audienceGroups', JSON.stringify([groupId]));
  form.set('file', new Blob([tinyPdf], { type: 'application/pdf' }), 'circular.pdf');
  const saved = await apiAs(await signedInAdmin()).post<{ _id: string }>(`/api/labs/${labId}/circulars`, form);
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  circulars.push(saved.body._id);
}

// The circulars go again: the News Flash and the home page's notices are the lab's, shared by every e2e file.
const circulars: string[] = [];
afterAll(async () => {
  const admin = apiAs(await signedInAdmin());
  for (const id of circulars) expect((await admin.del(`/api/labs/${labId}/circulars/${id}`)).status).toBe(200);
});

/** Opens the home page as a signed-in `user`: a fresh load, the focus at the top of the document. */
async function homeSignedIn(page: Page, user: SeededUser) {
  await signInAs(page, user);
  await expectVisible(page.getByRole('heading', { level: 1 }));
  await expectVisible(page.getByRole('link', { name: /^Marked to Me/ }).first());
}

const counts: string[] = [];

const TASKS: {
  name: string;
  widths: number[];
  run: (page: Page, user: SeededUser, keys: ReturnType<typeof tabs>) => Promise<void>;
}[] = [
  {
    name: 'home → sign in → Upload Letter',
    widths: [1280, 390],
    run: async (page, user, keys) => {
      await page.goto('/');
      await expectVisible(page.getByRole('heading', { level: 1 }));
      await tabToNavigation(page, keys, { role: 'link', name: 'Login' });
      await page.keyboard.press('Enter');
      await expectPath(page, '/login');
      await focusSettled(page);
      await keys.to({ role: 'textbox', name: /^Email/ });
      await page.keyboard.type(user.email);
      await keys.press(); // to the password field (no textbox role)
      await page.keyboard.type(user.password);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname !== '/login');
      await focusSettled(page);
      await tabToNavigation(page, keys, { role: 'link', name: 'Upload Letter' });
      await page.keyboard.press('Enter');
      await expectPath(page, '/dac');
    },
  },
  {
    name: 'open Marked to Me',
    widths: [1280],
    run: async (page, user, keys) => {
      await homeSignedIn(page, user);
      await tabToNavigation(page, keys, { role: 'link', name: /^Marked to Me/ });
      await page.keyboard.press('Enter');
      await expectPath(page, '/dac/inbox');
    },
  },
  {
    name: 'search',
    widths: [1280],
    run: async (page, user, keys) => {
      await homeSignedIn(page, user);
      await keys.to({ role: 'searchbox', name: 'Search the portal' });
      await page.keyboard.type('circular');
      await page.keyboard.press('Enter');
      await expectPath(page, '/search');
    },
  },
  {
    name: 'acknowledge a circular',
    widths: [1280],
    run: async (page, user, keys) => {
      const circular = `Tab path circular ${user.id.slice(0, 8)}`;
      await circularFor(await ownGroup(user), circular);
      await homeSignedIn(page, user);
      await tabToNavigation(page, keys, { role: 'link', name: /^To acknowledge/ });
      await page.keyboard.press('Enter');
      await expectPath(page, '/acknowledgements');
      await focusSettled(page);
      const toList = keys.count();
      await keys.to({ role: 'link', name: `Open ${circular} (opens in a new tab)` });
      console.log(
        `[tab-path]   to "To acknowledge": ${toList}; on to the circular's Open link: ${keys.count() - toList}`,
      );
      const opened = page.context().waitForEvent('page');
      await page.keyboard.press('Enter');
      await (await opened).close();
      const acknowledge = page.getByRole('button', { name: `Acknowledge ${circular}` });
      await page.waitForFunction((b) => !(b as HTMLButtonElement).disabled, await acknowledge.elementHandle());
      await keys.to({ role: 'button', name: `Acknowledge ${circular}` });
      await page.keyboard.press('Enter');
      await expectVisible(page.getByRole('dialog', { name: 'Acknowledge this document?' }));
    },
  },
  {
    name: 'open My Account',
    widths: [1280],
    run: async (page, user, keys) => {
      await homeSignedIn(page, user);
      await keys.to({ role: 'button', name: 'My Account' });
      await page.keyboard.press('Enter');
      await expectVisible(page.getByRole('menuitem', { name: 'View Profile' }));
    },
  },
];

describe('Tab alone, for the five most common tasks (decision 100)', () => {
  let people: SeededUser[] = [];
  beforeAll(async () => {
    people = [];
    for (let i = 0; i < TASKS.length; i++) people.push(await createApprovedUser('employee'));
  });

  TASKS.forEach((task, i) => {
    for (const width of task.widths) {
      it(`${task.name} at ${width}px`, async () => {
        const { page } = state;
        await page.setViewportSize({ width, height: width < 992 ? 844 : 800 });
        const keys = tabs(page, task.name);
        await task.run(page, people[i]!, keys);
        const line = `[tab-path] ${task.name} at ${width}px: ${keys.count()} Tab presses`;
        counts.push(line);
        console.log(line);
        if (task.name.includes('Upload Letter')) expect(keys.count()).toBeLessThanOrEqual(GOAL_TABS);
      });
    }
  });

  it('prints the counts', () => {
    console.log(counts.join('\n'));
    expect(counts.length).toBe(TASKS.reduce((n, t) => n + t.widths.length, 0));
  });
});

const screenshotDir = path.join(path.dirname(new URL(import.meta.url).pathname), 'screenshots');
const SKIP_TO_CONTENT = { en: 'Skip to main content', hi: 'मुख्य सामग्री पर जाएँ' };

describe('the home page after a sign-in (decision 100)', () => {
  for (const language of ['en', 'hi'] as const) {
    for (const size of SCREENSHOT_WIDTHS) {
      it(`puts the focus at the top of the page, then the skip link, axe clean at moderate: ${language}, ${size.width}px`, async () => {
        const { page } = state;
        const user = await createApprovedUser('employee');
        await page.setViewportSize(size);
        await page.goto('/api/health');
        await page.evaluate((language) => localStorage.setItem('language', language), language);
        await page.goto('/login');
        await page.locator('input[type="email"]').fill(user.email);
        await page.locator('input[type="password"]').fill(user.password);
        await page.locator('input[type="password"]').press('Enter');
        await expectPath(page, '/');
        await page.waitForFunction(() => document.activeElement?.id === 'page-top', undefined, { timeout: 10_000 });
        await checkA11y(page, { moderate: true });
        await page.keyboard.press('Tab');
        const skip = page.getByRole('link', { name: SKIP_TO_CONTENT[language] });
        expect(await skip.evaluate((a) => a === document.activeElement)).toBe(true);
        await page.screenshot({
          path: path.join(screenshotDir, `tab-path-home-signed-in-${language}-${size.width}.png`),
          animations: 'disabled',
        });
      });
    }
  }
});
