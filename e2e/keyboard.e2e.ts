import path from 'node:path';

import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SCREENSHOT_WIDTHS } from './a11y.ts';
import { expectPath, expectVisible, labId, useBrowser } from './fixtures.ts';
import { apiAs, createApprovedUser, type SeededUser, signedInAdmin } from './seed.ts';

// Decision 032: the keyboard path from the home page to Upload Letter, signing in on the way, took 94 Tab presses
// (8 News Flash links before the header, focus left in the content after sign-in, a search box with two stops). Now:
// a skip link past the News Flash, focus on the new page's h1 after every move, and a search box left with one Tab.
// Decision 100: after a sign-in with no page asked for the focus is at the top of the page, and the News Flash's links
// come after the navigation.

const state = useBrowser();
const screenshotDir = path.join(path.dirname(new URL(import.meta.url).pathname), 'screenshots');
const MAX_TABS = 30;

const PDF = new Blob(
  [
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  ],
  { type: 'application/pdf' },
);

const photoIds: string[] = [];

beforeAll(async () => {
  // Long News Flash links, as in the walk (about 690 px each at 390 px).
  const as = apiAs(await signedInAdmin());
  for (const name of ['Annual maintenance shutdown of the central workshop', 'Revised security pass procedure']) {
    const form = new FormData();
    form.set('name', name);
    form.set('description', `${name}: all staff are asked to read the attached order before the month ends.`);
    form.set('file', PDF, 'order.pdf');
    expect((await as.post(`/api/labs/${labId}/notices`, form)).status).toBe(201);
  }
  // A gallery slideshow on the home page, as in a real lab: its Pause button is a stop behind the open navigation.
  for (const hue of ['#336699', '#996633']) {
    const photo = await sharp({ create: { width: 640, height: 400, channels: 3, background: hue } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.set('name', `Campus ${hue}`);
    form.set('description', 'The campus from the east gate.');
    form.set('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'campus.jpg');
    const saved = await as.post<{ _id: string }>(`/api/labs/${labId}/upload-photo`, form);
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    photoIds.push(saved.body._id);
  }
});
// The photos go again: the lab journey (e2e/lab.e2e.ts) pages through the gallery it fills on the same server.
afterAll(async () => {
  const as = apiAs(await signedInAdmin());
  for (const id of photoIds) expect((await as.del(`/api/labs/${labId}/photos/${id}`)).status).toBe(200);
});

interface Focus {
  text: string;
  tag: string;
  /** A ring (outline or box shadow) of at least 2 px. */
  ring: boolean;
  /** Inside the viewport and not covered by anything at its middle and both ends. */
  shown: boolean;
}

const focusNow = (page: Page): Promise<Focus> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { text: '', tag: 'BODY', ring: false, shown: false };
    const style = getComputedStyle(el);
    const ring =
      (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) ||
      (style.boxShadow !== 'none' && style.boxShadow !== '');
    const r = el.getBoundingClientRect();
    const y = r.top + r.height / 2;
    const points = [r.left + 2, r.left + r.width / 2, r.right - 2];
    const inside = r.width > 0 && r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight;
    const uncovered = points.every((x) => {
      const hit = document.elementFromPoint(x, y);
      // A field's own icons and buttons (in its wrapper) lie over its ends; they do not hide it.
      return (
        hit !== null &&
        (el.contains(hit) ||
          hit.contains(el) ||
          (el.closest('.mantine-Input-wrapper') ?? el.parentElement!).contains(hit))
      );
    });
    const label = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent;
    const text = (label ?? el.textContent ?? '').trim().replace(/\s+/g, ' ');
    return { text, tag: el.tagName, ring, shown: inside && uncovered };
  });

/** Counts every Tab (and Shift+Tab) and checks after each that the focus is visible. */
function keyboard(page: Page, width: number) {
  let tabs = 0;
  const press = async (key: 'Tab' | 'Shift+Tab') => {
    tabs += 1;
    expect(tabs, `more than ${MAX_TABS} Tab presses at ${width}px`).toBeLessThanOrEqual(MAX_TABS);
    await page.keyboard.press(key);
    const focus = await focusNow(page);
    expect(focus.ring, `no focus ring on "${focus.text}" (${focus.tag}) at ${width}px`).toBe(true);
    expect(focus.shown, `"${focus.text}" (${focus.tag}) is hidden or off screen at ${width}px`).toBe(true);
    return focus;
  };
  /** Tabs (forwards or back) until the focus is on an element whose text starts with `text`. */
  const tabTo = async (text: string | RegExp, key: 'Tab' | 'Shift+Tab' = 'Tab') => {
    for (;;) {
      const focus = await press(key);
      if (typeof text === 'string' ? focus.text.startsWith(text) : text.test(focus.text)) return focus;
    }
  };
  return { press, tabTo, count: () => tabs };
}

/**
 * Waits until the opened narrow-screen navigation shows `link` (its list loads on first use, decision 058): a person sees
 * the menu before tabbing into it, while Tab pressed before it is drawn would go on into the page behind it.
 */
async function navigationOpen(page: Page, link: string) {
  await expectVisible(page.locator('#mobile-navigation').getByRole('link', { name: link }));
  // And until it has slid in: while it moves, its search box is still partly off screen (seen on a loaded machine).
  // Its box must be inside the window and the same on two frames running (the News Flash scrolls for ever, so the
  // page's animations never all stop).
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const box = () => document.getElementById('mobile-navigation')?.getBoundingClientRect();
        const first = box();
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            const second = box();
            resolve(
              !!first &&
                !!second &&
                first.left === second.left &&
                second.left >= 0 &&
                second.right <= window.innerWidth,
            );
          }),
        );
      }),
    undefined,
    { timeout: 10_000 },
  );
}

/** Waits until the focus is on the page's h1, named `name`. */
async function expectHeadingFocused(page: Page, name: string) {
  await page.waitForFunction(
    (name) => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === name,
    name,
    { timeout: 10_000 },
  );
}

/**
 * Waits until the narrow navigation's own transitions (its slide, its links' focus styles) have ended: with the focus
 * moved into it at once, a Tab during the slide found the next link still partly covered.
 */
async function navigationSettled(page: Page) {
  await page.waitForFunction(
    () => {
      const drawer = document.getElementById('mobile-navigation')!;
      return document.getAnimations().every((a) => {
        const target = (a.effect as KeyframeEffect | null)?.target;
        return a.playState !== 'running' || !target || !drawer.contains(target);
      });
    },
    undefined,
    { timeout: 10_000 },
  );
}

/** Waits until the narrow navigation has gone (it slides out over the page after a link is followed). */
async function navigationClosed(page: Page) {
  await page.waitForFunction(
    () => {
      // Its box, not its `hidden` attribute: that is set as the slide out begins.
      const drawer = document.getElementById('mobile-navigation');
      if (!drawer || getComputedStyle(drawer).display === 'none') return true;
      const box = drawer.getBoundingClientRect();
      return box.width === 0 || box.right <= 0;
    },
    undefined,
    { timeout: 10_000 },
  );
}

/** Waits until the focus is on an element whose text (or label) is `text`. */
async function expectFocusOn(page: Page, text: string) {
  await page.waitForFunction(
    (text) => {
      const el = document.activeElement;
      return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim() === text;
    },
    text,
    { timeout: 10_000 },
  );
}

async function walk(page: Page, employee: SeededUser, width: number) {
  await page.setViewportSize(SCREENSHOT_WIDTHS.find((s) => s.width === width)!);
  await page.goto('/');
  await expectVisible(page.getByRole('heading', { level: 1 }));
  await expectVisible(
    page
      .getByRole('region', { name: /News Flash/i })
      .getByRole('link')
      .first(),
  );
  const keys = keyboard(page, width);
  const narrow = width < 992;

  // The first Tab offers the content, the second skips the News Flash to the navigation.
  expect((await keys.press('Tab')).text).toBe('Skip to main content');
  expect((await keys.press('Tab')).text).toBe('Skip to navigation');
  await page.keyboard.press('Enter');
  if (narrow) {
    expect((await focusNow(page)).text).toBe('Open navigation');
    await page.keyboard.press('Enter');
    await navigationOpen(page, 'Login');
    await expectFocusOn(page, 'Home'); // the opened navigation takes the focus to its first link
    await navigationSettled(page);
  }
  await keys.tabTo('Login');
  await page.keyboard.press('Enter');
  await expectPath(page, '/login');
  await expectHeadingFocused(page, 'Login');
  if (narrow) await navigationClosed(page);

  await keys.tabTo('Email');
  await page.keyboard.type(employee.email);
  await keys.press('Tab');
  await page.keyboard.type(employee.password);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname !== '/login');
  // Signed in with no page asked for: the focus is at the top of the page (decision 100), and Tab goes on to the skip
  // links, the header and the navigation (the News Flash comes after it).
  await page.waitForFunction(() => document.activeElement?.id === 'page-top', undefined, { timeout: 10_000 });
  if (narrow) {
    await keys.tabTo('Open navigation');
    await page.keyboard.press('Enter');
    await navigationOpen(page, 'Upload Letter');
    await expectFocusOn(page, 'Home');
    await navigationSettled(page);
  }
  await keys.tabTo('Upload Letter');
  await page.keyboard.press('Enter');
  await expectPath(page, '/dac');
  await expectHeadingFocused(page, 'Letters Manager');
  return keys.count();
}

describe('keyboard path from home to Upload Letter (issue 35 item 2)', () => {
  for (const { width } of SCREENSHOT_WIDTHS) {
    it(`takes at most ${MAX_TABS} Tab presses with the focus visible at each, at ${width}px`, async () => {
      const { page } = state;
      const employee = await createApprovedUser('employee');
      const tabs = await walk(page, employee, width);
      console.log(`[keyboard] home → Login → Upload Letter at ${width}px: ${tabs} Tab presses`);
      expect(tabs).toBeLessThanOrEqual(MAX_TABS);
    });
  }

  it('at 390px the opened navigation takes the focus, and Escape gives it back to the menu button', async () => {
    const { page } = state;
    await page.setViewportSize(SCREENSHOT_WIDTHS.find((s) => s.width === 390)!);
    await page.goto('/');
    await expectVisible(page.getByRole('heading', { level: 1 }));
    const menu = page.getByRole('button', { name: 'Open navigation' });
    await menu.focus();
    await page.keyboard.press('Enter');
    await navigationOpen(page, 'Login');
    await expectFocusOn(page, 'Home');
    expect((await focusNow(page)).shown).toBe(true);
    await page.screenshot({ path: path.join(screenshotDir, 'keyboard-navigation-opened-390.png') });
    await page.keyboard.press('Escape');
    await expectFocusOn(page, 'Open navigation');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await expect(page.locator('#mobile-navigation').getByRole('link', { name: 'Login' }).count()).resolves.toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('the header search box is left with a single Tab', async () => {
    const { page } = state;
    await page.goto('/');
    await expectVisible(page.getByRole('heading', { level: 1 }));
    const search = page.getByRole('searchbox', { name: /search/i }).first();
    await search.focus();
    await page.keyboard.type('procedure');
    // With the suggestions in and the search finished (while it runs, a spinner stands in for the submit button).
    await expectVisible(page.getByRole('option').first());
    await page.waitForFunction(() => !document.querySelector('form[role="search"] [role="status"]'));
    await page.keyboard.press('Tab');
    const after = await focusNow(page);
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('form[role="search"]')))).toBe(false);
    expect(after.tag).not.toBe('BODY');
  });
});

const STRIP = { en: 'News Flash: lab notices and circulars', hi: 'समाचार पट्टी: प्रयोगशाला की सूचनाएँ और परिपत्र' };
const PAUSE = { en: 'Pause', hi: 'रोकें' };
const ARCHIVE_LINK = { en: 'Archive of expired notices and circulars', hi: 'समाप्त सूचनाओं और परिपत्रों का संग्रह' };

describe('skip links and News Flash links in focus, shown whole (issue 35 item 2)', () => {
  for (const language of ['en', 'hi'] as const) {
    for (const size of SCREENSHOT_WIDTHS) {
      it(`${language} at ${size.width}px`, async () => {
        const { page } = state;
        await page.setViewportSize(size);
        await page.goto('/api/health');
        await page.evaluate((language) => localStorage.setItem('language', language), language);
        await page.goto('/');
        // The strip's notices are in once its Pause button shows (its Archive link is there from the first paint: a
        // CI run tabbed to it before the notices had come).
        const strip = page.getByRole('region', { name: STRIP[language] });
        await expectVisible(strip.getByRole('button', { name: PAUSE[language] }));
        const keys = keyboard(page, size.width);
        const shot = (what: string) =>
          page.screenshot({ path: path.join(screenshotDir, `keyboard-${what}-${language}-${size.width}.png`) });
        const skips = { en: 'Skip to navigation', hi: 'नेविगेशन पर जाएँ' };
        await keys.press('Tab');
        expect((await keys.press('Tab')).text).toBe(skips[language]);
        await shot('skip-navigation');
        // The first News Flash link, whole and in view (checked by every press), clear of the label and the
        // Pause/Archive buttons: a notice's link in the strip, not its Archive link. The strip comes after the header
        // and the navigation in the Tab order (decision 100).
        const inStrip = () => strip.evaluate((section) => section.contains(document.activeElement));
        let link = await keys.press('Tab');
        while (!(await inStrip())) link = await keys.press('Tab');
        expect(link.tag).toBe('A');
        expect(link.text).not.toBe('');
        expect(
          await strip.getByRole('link', { name: ARCHIVE_LINK[language] }).evaluate((a) => a === document.activeElement),
        ).toBe(false);
        expect(await strip.evaluate((section) => section.contains(document.activeElement))).toBe(true);
        await shot('news-flash-link');
      });
    }
  }
});
