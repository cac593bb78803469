import { useHotkeys } from '@mantine/hooks';
import { type FormEvent, lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';

import { SEARCH_MIN_LENGTH } from '#shared/search.ts';

import { translateCoded } from '#web/i18n/index.ts';
import { withMantineStyles } from '#web/lib/mantine-styles.ts';
import { paths } from '#web/lib/paths.ts';

import { SearchInput } from './search-input.tsx';

// The suggestions (a combobox with its floating dropdown) load when the box is first focused, not with every page's
// first load; until then the box is a plain search field that already submits.
const loadSuggestions = withMantineStyles(() => import('./search-suggestions.tsx'));
const SearchSuggestions = lazy(() => loadSuggestions().then((m) => ({ default: m.SearchSuggestions })));

/**
 * The header search (decision 015): searches the whole portal. Enter opens /search?q=…; suggestions (the first few results
 * of the same search, debounced) appear as one types and open with the arrow keys and Enter; "/" focuses the box from
 * anywhere on the page. Visitors search too: the server gives them public lab content only. Enter with fewer than
 * SEARCH_MIN_LENGTH characters searches nothing and says why, in the server's own words (decision 015): the field's error,
 * announced, over the page in the header (`floatingNote`), in the flow of the navigation drawer.
 */
export function SearchBox({
  id = 'header-search',
  hotkey = false,
  floatingNote = true,
}: {
  id?: string;
  hotkey?: boolean;
  floatingNote?: boolean;
}) {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [query, setQuery] = useState(params.get('q') ?? '');
  const [suggesting, setSuggesting] = useState(false);
  // Enter was pressed with too short a query: the field says so until the text changes.
  const [tooShort, setTooShort] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useHotkeys(hotkey ? [['/', () => input.current?.focus()]] : []);
  const changeQuery = (text: string) => {
    setQuery(text);
    setTooShort(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = query.trim();
    if (text.length < SEARCH_MIN_LENGTH) {
      setTooShort(true);
      return false;
    }
    setTooShort(false);
    void navigate(paths.search(text));
    return true;
  };
  const note = tooShort ? translateCoded({ code: 'search.query_too_short', params: { min: SEARCH_MIN_LENGTH } }) : '';
  // The plain field; while the suggestions load it stands in for them with the focus (autoFocus), so nothing typed
  // in the meantime is lost (the text lives here, in `query`).
  const plain = (focused: boolean) => (
    <SearchInput
      ref={input}
      id={id}
      value={query}
      autoFocus={focused}
      onChange={(event) => changeQuery(event.currentTarget.value)}
      note={note}
      floatingNote={floatingNote}
      onPointerEnter={() => void loadSuggestions()}
      onFocus={() => setSuggesting(true)}
    />
  );

  return (
    <form
      role="search"
      onSubmit={(event) => void submit(event)}
      aria-label={t('search.region')}
      style={{ position: 'relative' }}
    >
      {suggesting ? (
        <Suspense fallback={plain(true)}>
          <SearchSuggestions
            id={id}
            inputRef={input}
            query={query}
            onQueryChange={changeQuery}
            onSubmit={submit}
            note={note}
            floatingNote={floatingNote}
          />
        </Suspense>
      ) : (
        plain(false)
      )}
    </form>
  );
}
