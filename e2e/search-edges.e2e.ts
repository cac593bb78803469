import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { SearchAnswerJson } from '#shared/schemas/search.ts';

import { pdfWithText, uniqueWord } from '#server/test/documents.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectVisible, labId, useBrowser } from './fixtures.ts';
import { apiAs, createApprovedUser, registrationFor, signedInAdmin, uniquePersonName } from './seed.ts';

// Decision 015, the search's rough edges, as a visitor meets them at 1280 and 390 px: Enter with too short a query
// says why; a staff name finds nothing for a visitor and says that people are found after signing in (suggestions
// and results page); a suggestion shows its whole title and its marked word unclipped. axe on each state; screenshots
// in e2e/screenshots/search-edges-*.png. Selected by label, role and visible text.

const browser = useBrowser();
const SHORT = 'Type at least 2 characters to search.';
const PEOPLE = /People are found after signing in\./;

/** A public lab notice with a long title and the word in its description (a snippet that marks it). */
async function longNotice(word: string) {
  const admin = await signedInAdmin();
  const title = `Annual fire safety drill for every laboratory wing, the annexe and the new trial range ${word}`;
  const form = new FormData();
  form.set('name', title);
  form.set('description', `Assembly points and wardens of each wing for the ${word} drill, with the muster roll.`);
  form.set('file', new Blob([new Uint8Array(pdfWithText('Drill plan'))], { type: 'application/pdf' }), 'Drill.pdf');
  const res = await apiAs(admin).post(`/api/labs/${labId}/notices`, form);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return title;
}

/** The visible search field: the header's at 1280 px, the navigation drawer's at 390 px (opened here). */
async function searchField(page: Page, width: number): Promise<Locator> {
  if (width < 768) {
    await page.getByRole('button', { name: 'Open navigation' }).click();
    return page.locator('#drawer-search');
  }
  return page.locator('#header-search');
}

/** The viewport as it is, for the states that float over the page. */
const shot = async (page: Page, name: string, width: number) => {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.screenshot({ path: `e2e/screenshots/search-edges-${name}-${width}.png`, animations: 'disabled' });
};

/** Nothing of the element is cut: its text fits its box, and its box lies inside `within` and the viewport. */
async function expectUnclipped(element: Locator, within: Locator, width: number) {
  const fits = await element.evaluate(
    (el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1,
  );
  expect(fits).toBe(true);
  const [box, outer] = await Promise.all([element.boundingBox(), within.boundingBox()]);
  expect(box && outer).toBeTruthy();
  expect(box!.x).toBeGreaterThanOrEqual(Math.max(outer!.x, 0) - 1);
  expect(box!.y).toBeGreaterThanOrEqual(outer!.y - 1);
  expect(box!.x + box!.width).toBeLessThanOrEqual(Math.min(outer!.x + outer!.width, width) + 1);
  expect(box!.y + box!.height).toBeLessThanOrEqual(outer!.y + outer!.height + 1);
}

describe('Search rough edges (issue 35)', () => {
  it('a visitor: too short a query, a staff name, a long suggestion, at 1280 and 390 px', async () => {
    const { page } = browser;
    const word = uniqueWord('drill');
    const [title, staff] = await Promise.all([
      longNotice(word),
      createApprovedUser('employee', undefined, {
        personalDetails: { ...registrationFor().personalDetails, name: uniquePersonName() },
      }),
    ]);
    // The signed-in find the person; a visitor finds nothing for the name.
    const surname = staff.name.split(' ').at(-1)!;
    expect((await apiAs(staff).get<SearchAnswerJson>(`/api/search?q=${surname}`)).body.results[0]?.kind).toBe('person');
    expect((await apiAs(null).get<SearchAnswerJson>(`/api/search?q=${surname}`)).body.results).toEqual([]);

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width > 400 ? 800 : 844 });
      await page.goto('/');
      const box = await searchField(page, width);
      await expectVisible(box);

      // Enter with nothing, then with one character: the field says why, and nothing is searched.
      await box.click();
      await box.press('Enter');
      await expectVisible(page.getByRole('alert').filter({ hasText: SHORT }));
      expect(new URL(page.url()).pathname).toBe('/');
      await checkA11y(page, { moderate: true });
      await shot(page, 'too-short', width);
      await box.fill('a');
      await expectHidden(page.getByRole('alert').filter({ hasText: SHORT }));
      await box.press('Enter');
      await expectVisible(page.getByRole('alert').filter({ hasText: SHORT }));

      // A long title: the suggestion shows all of it, wrapped, and the marked word whole.
      await box.fill(word);
      const option = page.getByRole('option', { name: new RegExp(word) });
      await expectVisible(option);
      const listbox = page.getByRole('listbox', { name: 'Suggestions' });
      await expectVisible(option.getByText(title, { exact: true }));
      await expectUnclipped(option.getByText(title, { exact: true }), option, width);
      const mark = option.locator('mark', { hasText: word });
      await expectVisible(mark);
      await expectUnclipped(mark, option, width);
      await expectUnclipped(option, listbox, width);
      await checkA11y(page, { moderate: true });
      await shot(page, 'suggestions', width);

      // A staff name: nothing for a visitor, and the list says why.
      await box.fill(staff.name);
      await expectVisible(
        page.getByText(`Nothing found for “${staff.name}”. People are found after signing in.`).first(),
      );
      await checkA11y(page, { moderate: true });
      await shot(page, 'visitor-suggestions', width);
    }

    // The results page says it too, with the way to sign in.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/search?q=${encodeURIComponent(staff.name)}`);
    await expectVisible(page.getByText(/^Nothing found for/));
    await expectVisible(page.getByText(PEOPLE));
    await expectVisible(page.getByRole('link', { name: 'Login', exact: true }).last());
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'search-edges-visitor-results');
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await expectVisible(page.getByText('लोग लॉग इन करने के बाद खोजे जा सकते हैं।', { exact: false }));
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'search-edges-visitor-results-hi');
    await page.getByRole('button', { name: 'English' }).click();
    // The results page's Login returns here once signed in.
    await page.getByRole('main').getByRole('link', { name: 'Login', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(browser.pageErrors).toEqual([]);
  });
});
