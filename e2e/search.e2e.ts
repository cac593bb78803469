import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import type { CloseGroupJson } from '#shared/schemas/close-group.ts';
import type { SearchAnswerJson } from '#shared/schemas/search.ts';

import { pdfWithText, uniqueWord } from '#server/test/documents.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectVisible, signInAs, useBrowser } from './fixtures.ts';
import { apiAs, createApprovedUser, signedInAdmin } from './seed.ts';

// Decision 015: the portal search. A member of a close group types a word from inside a PDF of that close group into the
// header box, picks the suggestion and the document opens; the same word on /search shows the result with the word
// marked; an outsider finds nothing. Selected by label, role and visible text.

const browser = useBrowser();

/** Waits until the background job has read the file and the search finds the word for this user. */
async function waitUntilFound(user: { token: string }, word: string, timeoutMs = 45_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const res = await apiAs(user).get<SearchAnswerJson>(`/api/search?q=${word}`);
    if (res.status === 200 && res.body.results.length) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`"${word}" was not found within ${timeoutMs / 1000} s: is the extraction job running?`);
}

describe('Portal search', () => {
  it('a member finds a word inside a close-group PDF from the header box and opens the document', async () => {
    const { page } = browser;
    const word = uniqueWord('blast');
    const [member, outsider] = await Promise.all([createApprovedUser('employee'), createApprovedUser('employee')]);
    const admin = await signedInAdmin();
    const today = new Date().toISOString().slice(0, 10);
    const group = await apiAs(admin).post<CloseGroupJson>('/admin/close-group', {
      groupName: `Wall review ${randomUUID().slice(0, 6)}`,
      groupPurpose: 'Trial planning.',
      groupDuration: { from: '2020-01-01', to: `${Number(today.slice(0, 4)) + 1}-12-31` },
      requestedBy: [member.id],
      adminRemarks: '',
    });
    expect(group.status).toBe(201);
    const form = new FormData();
    const pdf = pdfWithText(`Findings of the review: ${word} is safe to load`);
    form.set('document', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'Wall findings.pdf');
    const upload = await apiAs(member).post(`/api/close-groups/${group.body._id}/upload`, form);
    expect(upload.status).toBe(201);

    // The upload returned at once; the background job reads the PDF shortly after.
    await waitUntilFound(member, word);
    expect((await apiAs(outsider).get<SearchAnswerJson>(`/api/search?q=${word}`)).body).toEqual({
      results: [],
      next: null,
      counts: {},
      countsCapped: false,
    });

    await signInAs(page, member, { to: '/' });
    // "/" focuses the header box from anywhere on the page, once the header (and its shortcut) is there.
    const box = page.getByLabel('Search the portal', { exact: true }).first();
    await expectVisible(box);
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('/');
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(word.slice(0, 9)); // a prefix, as one types
    const suggestion = page.getByRole('option', { name: /Wall findings\.pdf/ });
    await expectVisible(suggestion);
    await checkA11y(page);
    const [opened] = await Promise.all([page.context().waitForEvent('page'), suggestion.click()]);
    await opened.waitForLoadState();
    expect(new URL(opened.url()).pathname).toMatch(/^\/uploads\/close-groups\/[0-9a-f-]{36}$/);
    await opened.close();

    // Enter opens the results page: grouped by kind, with counts, the word marked in the snippet.
    await box.fill(word);
    await box.press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === word);
    await expectVisible(page.getByRole('heading', { name: 'Search', level: 1 }));
    await expectVisible(page.getByRole('heading', { name: /Close group document/, level: 2 }));
    await expectVisible(page.locator('mark', { hasText: word }));
    await expectVisible(page.getByText('1 result', { exact: false }));
    await checkA11y(page);
    await screenshot(page, 'search-results');
    // Keyboard: Tab reaches the result's link, and Enter opens the document.
    const link = page.getByRole('link', { name: /Wall findings\.pdf/ });
    await link.focus();
    const [again] = await Promise.all([page.context().waitForEvent('page'), page.keyboard.press('Enter')]);
    await again.waitForLoadState();
    expect(new URL(again.url()).pathname).toMatch(/^\/uploads\/close-groups\//);
    await again.close();

    // The same page in Hindi.
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await expectVisible(page.getByRole('heading', { name: 'खोज', level: 1 }));
    await expectVisible(page.getByRole('heading', { name: /क्लोज़ ग्रुप दस्तावेज़/, level: 2 }));
    await checkA11y(page);
    await screenshot(page, 'search-results-hi');
    await page.getByRole('button', { name: 'English' }).click();

    // The empty state.
    await page.goto(`/search?q=${uniqueWord('none')}`);
    await expectVisible(page.getByText(/^Nothing found for/));
    await checkA11y(page);
    await screenshot(page, 'search-empty');
  });
});
