import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { MARK_END, MARK_START } from '#shared/schemas/search.ts';
import type { UserJson } from '#shared/schemas/user.ts';

import i18n from '#web/i18n/index.ts';
import { clearLogin, saveLogin } from '#web/lib/auth-storage.ts';
import { profile } from '#web/test/profile-fixture.ts';
import { jsonResponse, render } from '#web/test/render.tsx';

import { SearchResults, wordToFind } from './search-results.tsx';

// Decision 015: a visitor whose search finds nothing is told that people are found after signing in, with the way there.

const nothing = { results: [], next: null, counts: {}, countsCapped: false };

afterEach(async () => {
  clearLogin();
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('SearchResults: nothing found', () => {
  it('tells a visitor that people are found after signing in, with a Login link back to this search', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse(200, nothing));
    render(<SearchResults q="Kavita Rao" kinds={[]} onKindsChange={() => {}} />);
    expect(await screen.findByText('Nothing found for “Kavita Rao”. Try other words, or fewer of them.')).toBeVisible();
    expect(screen.getByText(/^People are found after signing in\./)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  });

  it('says it in Hindi in Hindi mode', async () => {
    await i18n.changeLanguage('hi');
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse(200, nothing));
    render(<SearchResults q="कविता" kinds={[]} onKindsChange={() => {}} />);
    expect(await screen.findByText(/^लोग लॉग इन करने के बाद खोजे जा सकते हैं।/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'लॉग इन' })).toBeVisible();
  });

  it('says nothing of the kind to a signed-in person', async () => {
    saveLogin({ token: 'a.token', user: profile as unknown as UserJson });
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse(200, nothing));
    render(<SearchResults q="Kavita Rao" kinds={[]} onKindsChange={() => {}} />);
    expect(await screen.findByText(/^Nothing found for/)).toBeVisible();
    expect(screen.queryByText(/People are found after signing in/)).not.toBeInTheDocument();
  });

  it('asks for at least 2 characters', () => {
    render(<SearchResults q="a" kinds={[]} onKindsChange={() => {}} />);
    expect(screen.getByText('Type at least 2 characters in the search box at the top of the page.')).toBeVisible();
  });
});

describe('wordToFind: the word a file hit opens the viewer at (decision 113)', () => {
  it('is the first word the snippet marks (the stem the search matched), else the first word of the query', () => {
    expect(
      wordToFind(`inspection of ${MARK_START}extinguishers${MARK_END} and ${MARK_START}hydrant${MARK_END}`, 'x'),
    ).toBe('extinguishers');
    expect(wordToFind(`${MARK_START}अनापत्ति${MARK_END} का नवीनीकरण`, 'अनापत्ति')).toBe('अनापत्ति');
    // A classified file's hit has no snippet: the query's own first word.
    expect(wordToFind('', '  fire NOC renewal ')).toBe('fire');
  });
});
