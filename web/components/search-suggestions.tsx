import { Combobox, Group, Loader, Text, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, type RefObject, useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import type { SearchAnswerJson, SearchResultJson } from '#shared/schemas/search.ts';
import { SEARCH_MIN_LENGTH, SEARCH_SUGGESTION_LIMIT } from '#shared/search.ts';

import { api } from '#web/lib/api-client.ts';
import { useStoredLogin } from '#web/lib/auth-storage.ts';

import classes from './search.module.css';
import { SearchInput } from './search-input.tsx';
import { SearchSnippet } from './search-snippet.tsx';

/** Opens a result: a stored file in a new tab, a portal page in place. */
export function openSearchResult(result: Pick<SearchResultJson, 'url'>, navigate: (to: string) => void) {
  if (result.url.startsWith('/uploads/')) window.open(result.url, '_blank', 'noopener');
  else navigate(result.url);
}

/**
 * The header search field with its suggestions: loaded by SearchBox when the field is first focused, it takes the
 * field's place with the focus and the caret where they were. Titles and snippets are shown whole, wrapping (issue
 * 35), in a list wider than the field that scrolls when long. A visitor whose search finds nothing is told that people
 * are found after signing in (the server finds them for the signed-in only).
 */
export function SearchSuggestions({
  id,
  inputRef,
  query,
  onQueryChange,
  onSubmit,
  note,
  floatingNote,
}: {
  id: string;
  inputRef: RefObject<HTMLInputElement | null>;
  query: string;
  onQueryChange: (query: string) => void;
  onSubmit: (event: FormEvent) => boolean;
  /** SearchInput's note and where it shows (SearchBox). */
  note: string;
  floatingNote: boolean;
}) {
  const { t } = useTranslation('common');
  const { t: ts } = useTranslation('search');
  const visitor = !useStoredLogin().token;
  const navigate = useNavigate();
  const [debounced] = useDebouncedValue(query.trim(), 250);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });

  // This field replaces the plain one the person just focused: keep the focus, with the caret at the end. Only if the
  // focus went with the plain field (it is nowhere now): a person who has tabbed on while this part loaded stays where
  // they are (the focus jumped back from the text-size buttons to the search box; decision 100).
  useLayoutEffect(() => {
    const field = inputRef.current;
    const active = document.activeElement;
    if (!field || (active !== null && active !== document.body && active !== field)) return;
    field.focus();
    field.setSelectionRange(field.value.length, field.value.length);
    combobox.openDropdown();
    // Once, on taking over from the plain field.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const suggestions = useQuery({
    queryKey: ['search', 'suggestions', debounced],
    queryFn: ({ signal }) =>
      api.get<SearchAnswerJson>('/api/search', { params: { q: debounced, limit: SEARCH_SUGGESTION_LIMIT }, signal }),
    enabled: debounced.length >= SEARCH_MIN_LENGTH,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
  const results = debounced.length >= SEARCH_MIN_LENGTH ? (suggestions.data?.results ?? []) : [];
  // The answer for what is typed now came back empty (not a previous answer kept while the next loads).
  const foundNothing =
    debounced.length >= SEARCH_MIN_LENGTH && !suggestions.isPlaceholderData && suggestions.isSuccess && !results.length;
  const visitorNote = visitor && foundNothing ? ts('suggestNone', { q: debounced }) : '';

  const onOption = (value: string) => {
    const result = results.find((r) => `${r.kind}:${r._id}` === value);
    combobox.closeDropdown();
    if (result) openSearchResult(result, (to) => void navigate(to));
  };

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={onOption}
      // Inside the search landmark (axe 'region'), not at the end of the page; gone while closed, so the page holds no
      // hidden copy of the suggestions before its content.
      withinPortal={false}
      keepMounted={false}
      width="min(440px, calc(100vw - 24px))"
      position="bottom-end"
    >
      <Combobox.Target>
        <SearchInput
          ref={inputRef}
          id={id}
          value={query}
          onChange={(event) => {
            onQueryChange(event.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          // Enter without a chosen suggestion searches (SearchBox's submit) and closes the list.
          onKeyDown={(event) => {
            if (event.key === 'Enter' && combobox.selectedOptionIndex < 0 && onSubmit(event)) combobox.closeDropdown();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          note={note}
          floatingNote={floatingNote}
          busy={
            suggestions.isFetching ? <Loader size={14} role="status" aria-label={t('search.loading')} /> : undefined
          }
        />
      </Combobox.Target>
      <Combobox.Dropdown
        hidden={results.length === 0 && !visitorNote}
        mah="min(70vh, 560px)"
        style={{ overflowY: 'auto' }}
      >
        <Combobox.Options aria-label={t('search.suggestions')}>
          {results.map((r) => (
            <Combobox.Option key={`${r.kind}:${r._id}`} value={`${r.kind}:${r._id}`}>
              <Group gap={8} wrap="nowrap" justify="space-between" align="flex-start">
                <Text size="sm" fw={600} className={classes.title}>
                  {r.title}
                </Text>
                <Text size="xs" c="gray.7" style={{ whiteSpace: 'nowrap' }} mt={2}>
                  {t(`search.kind.${r.kind}`)}
                </Text>
              </Group>
              <SearchSnippet snippet={r.snippet} size="xs" className={classes.snippet} />
            </Combobox.Option>
          ))}
        </Combobox.Options>
        {visitorNote && (
          <Text size="sm" p="xs" c="gray.9">
            {visitorNote}
          </Text>
        )}
      </Combobox.Dropdown>
      {/* Said aloud too: the list is not announced as it opens. */}
      <div aria-live="polite" className="visually-hidden">
        {visitorNote}
      </div>
    </Combobox>
  );
}
