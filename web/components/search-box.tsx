import { useRef, useState, type FormEvent } from 'react';
import { ActionIcon, Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue, useHotkeys } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { SEARCH_SUGGESTION_LIMIT, type SearchAnswerJson, type SearchResultJson } from '#shared/schemas/search.ts';
import { paths } from '#web/lib/paths.ts';
import { api } from '#web/lib/api-client.ts';
import { SearchSnippet } from './search-snippet.tsx';

function SearchIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2.2" />
      <path d="M20 20l-4-4" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

/** Opens a result: a stored file in a new tab, a portal page in place. */
export function openSearchResult(result: Pick<SearchResultJson, 'url'>, navigate: (to: string) => void) {
  if (result.url.startsWith('/uploads/')) window.open(result.url, '_blank', 'noopener');
  else navigate(result.url);
}

/**
 * The header search (issue 14): searches the whole portal. Enter opens /search?q=…; suggestions (the first few results
 * of the same search, debounced) appear as one types and open with the arrow keys and Enter; "/" focuses the box from
 * anywhere on the page. Visitors search too: the server gives them public lab content only.
 */
export function SearchBox({ id = 'header-search', hotkey = false }: { id?: string; hotkey?: boolean }) {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [query, setQuery] = useState(params.get('q') ?? '');
  const [debounced] = useDebouncedValue(query.trim(), 250);
  const input = useRef<HTMLInputElement>(null);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  useHotkeys(hotkey ? [['/', () => input.current?.focus()]] : []);

  const suggestions = useQuery({
    queryKey: ['search', 'suggestions', debounced],
    queryFn: ({ signal }) =>
      api.get<SearchAnswerJson>('/api/search', { params: { q: debounced, limit: SEARCH_SUGGESTION_LIMIT }, signal }),
    enabled: debounced.length >= 2,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
  const results = debounced.length >= 2 ? (suggestions.data?.results ?? []) : [];

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const text = query.trim();
    if (text.length < 2) return;
    combobox.closeDropdown();
    void navigate(paths.search(text));
  };
  const onOption = (value: string) => {
    const result = results.find((r) => `${r.kind}:${r._id}` === value);
    combobox.closeDropdown();
    if (result) openSearchResult(result, (to) => void navigate(to));
  };

  return (
    <form role="search" onSubmit={onSubmit} aria-label={t('search.region')}>
      <Combobox store={combobox} onOptionSubmit={onOption} withinPortal>
        <Combobox.Target>
          <TextInput
            ref={input}
            id={id}
            label={t('search.label')}
            labelProps={{ className: 'visually-hidden' }}
            placeholder={t('search.placeholder')}
            value={query}
            onChange={(event) => {
              setQuery(event.currentTarget.value);
              combobox.openDropdown();
              combobox.updateSelectedOptionIndex();
            }}
            onFocus={() => combobox.openDropdown()}
            onBlur={() => combobox.closeDropdown()}
            type="search"
            autoComplete="off"
            w={{ base: '100%', sm: 260 }}
            rightSectionPointerEvents="all"
            rightSection={
              suggestions.isFetching ? (
                <Loader size={14} role="status" aria-label={t('search.loading')} />
              ) : (
                <ActionIcon type="submit" variant="subtle" color="gray.8" aria-label={t('search.submit')}>
                  <SearchIcon />
                </ActionIcon>
              )
            }
          />
        </Combobox.Target>
        <Combobox.Dropdown hidden={results.length === 0}>
          <Combobox.Options aria-label={t('search.suggestions')}>
            {results.map((r) => (
              <Combobox.Option key={`${r.kind}:${r._id}`} value={`${r.kind}:${r._id}`}>
                <Group gap={6} wrap="nowrap" justify="space-between">
                  <Text size="sm" fw={600} lineClamp={1}>
                    {r.title}
                  </Text>
                  <Text size="xs" c="gray.7" style={{ whiteSpace: 'nowrap' }}>
                    {t(`search.kind.${r.kind}`)}
                  </Text>
                </Group>
                <SearchSnippet snippet={r.snippet} size="xs" lineClamp={2} />
              </Combobox.Option>
            ))}
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>
    </form>
  );
}
