import { screen, waitFor } from '@testing-library/react';
import { createRef, type RefObject } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { UserJson } from '#shared/schemas/user.ts';

import i18n from '#web/i18n/index.ts';
import { clearLogin, saveLogin } from '#web/lib/auth-storage.ts';
import { profile } from '#web/test/profile-fixture.ts';
import { jsonResponse, render } from '#web/test/render.tsx';

import { SearchBox } from './search-box.tsx';
import { SearchSuggestions } from './search-suggestions.tsx';

// Decision 015: the header search box says why Enter does nothing, and tells a visitor whose search finds nothing that
// people are found after signing in.

const nothing = { results: [], next: null, counts: {}, countsCapped: false };
const notice = {
  kind: 'notice',
  _id: '00000000-0000-4000-8000-000000000001',
  title: 'Fire drill for the whole laboratory, all wings, including the annexe and the new trial range',
  snippet: 'The «drill» starts at ten.',
  url: '/uploads/notices/x',
  date: '2026-11-01T00:00:00.000Z',
};

afterEach(async () => {
  clearLogin();
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('SearchBox: too short a query', () => {
  it('says, on Enter with nothing or 1 character, that 2 are needed, in an announced note tied to the field', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    const { user } = render(<SearchBox />);
    const box = screen.getByRole('searchbox', { name: 'Search the portal' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.type(box, '{Enter}');
    // An alert (announced), and the field's description, marked invalid.
    expect(await screen.findByRole('alert')).toHaveTextContent('Type at least 2 characters to search.');
    const field = screen.getByRole('searchbox', { name: 'Search the portal' });
    expect(field).toHaveAccessibleDescription('Type at least 2 characters to search.');
    expect(field).toHaveAttribute('aria-invalid', 'true');

    // Typing takes the note away; one character and Enter bring it back.
    await user.type(screen.getByRole('searchbox', { name: 'Search the portal' }), 'a');
    expect(screen.queryByText('Type at least 2 characters to search.')).not.toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Type at least 2 characters to search.')).toBeInTheDocument();
    // Nothing was searched for.
    expect(fetch.mock.calls.filter(([url]) => String(url).startsWith('/api/search'))).toEqual([]);
  });

  it('says it in Hindi in Hindi mode', async () => {
    await i18n.changeLanguage('hi');
    const { user } = render(<SearchBox />);
    await user.type(screen.getByRole('searchbox'), ' {Enter}');
    expect(await screen.findByText('खोजने के लिए कम से कम 2 अक्षर लिखें।')).toBeInTheDocument();
  });
});

describe('SearchBox: suggestions', () => {
  const typeInto = async (user: ReturnType<typeof render>['user'], text: string) => {
    await user.click(screen.getByRole('searchbox'));
    // The suggestions load on focus and take the field's place.
    await waitFor(() => expect(screen.getByRole('searchbox')).toHaveAttribute('aria-haspopup', 'listbox'));
    expect(screen.getByRole('searchbox')).toHaveFocus();
    await user.keyboard(text);
  };

  it('tells a visitor whose search finds nothing that people are found after signing in', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse(200, nothing));
    const { user } = render(<SearchBox />);
    await typeInto(user, 'Kavita');
    const text = 'Nothing found for “Kavita”. People are found after signing in.';
    await waitFor(() => expect(screen.getAllByText(text).length).toBeGreaterThan(0));
    // Shown in the list, and said in a live region.
    expect(document.querySelector('[aria-live="polite"]')).toHaveTextContent(text);
  });

  it('says nothing of the kind to a signed-in person, nor to a visitor whose search finds something', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse(200, nothing));
    saveLogin({ token: 'a.token', user: profile as unknown as UserJson });
    const { user, unmount } = render(<SearchBox />);
    await typeInto(user, 'Kavita');
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/People are found after signing in/)).not.toBeInTheDocument();
    unmount();

    clearLogin();
    fetch.mockImplementation(async () => jsonResponse(200, { ...nothing, results: [notice], counts: { notice: 1 } }));
    const second = render(<SearchBox />);
    await typeInto(second.user, 'drill');
    // The whole title is there: a suggestion's title wraps rather than being cut.
    // (jsdom does not position the floating list, so it counts as hidden.)
    const option = await screen.findByRole('option', { name: new RegExp(notice.title), hidden: true });
    expect(option).toHaveTextContent(notice.title);
    expect(screen.queryByText(/People are found after signing in/)).not.toBeInTheDocument();
  });
});

describe('SearchSuggestions: taking over from the plain field (decision 100)', () => {
  const take = (inputRef: RefObject<HTMLInputElement | null>) => (
    <SearchSuggestions
      id="header-search"
      inputRef={inputRef}
      query=""
      onQueryChange={() => {}}
      onSubmit={() => true}
      note=""
      floatingNote
    />
  );

  it('keeps the focus the plain field had (it went with the plain field)', () => {
    const inputRef = createRef<HTMLInputElement>();
    render(take(inputRef));
    expect(screen.getByRole('searchbox')).toHaveFocus();
  });

  it('leaves the focus where the person has tabbed on to while it loaded', () => {
    const onward = document.createElement('button');
    onward.textContent = 'A+';
    document.body.append(onward);
    onward.focus();
    const inputRef = createRef<HTMLInputElement>();
    render(take(inputRef));
    expect(screen.getByRole('searchbox')).not.toHaveFocus();
    expect(onward).toHaveFocus();
    onward.remove();
  });
});
