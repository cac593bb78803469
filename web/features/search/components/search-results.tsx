import { Alert, Anchor, Badge, Button, Chip, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import {
  countLabel,
  MARK_END,
  MARK_START,
  SEARCH_KINDS,
  SEARCH_MIN_LENGTH,
  type SearchKind,
  type SearchResultJson,
} from '#shared/schemas/search.ts';

import { ViewDocument } from '#web/components/document-viewer/view-document.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { NewTabLink } from '#web/components/new-tab-link.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { SearchSnippet } from '#web/components/search-snippet.tsx';
import { useStoredLogin } from '#web/lib/auth-storage.ts';
import { paths } from '#web/lib/paths.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { isSearchable, useSearchPages } from '../api.ts';

/** The word a file's viewer opens at: the first one the snippet marks (the search's own match), else the query's. */
export function wordToFind(snippet: string, q: string): string {
  const start = snippet.indexOf(MARK_START);
  const end = start < 0 ? -1 : snippet.indexOf(MARK_END, start);
  if (start >= 0 && end > start) return snippet.slice(start + MARK_START.length, end);
  return q.trim().split(/\s+/)[0] ?? '';
}

/**
 * A result's title: its file in a new tab, then "View" (the portal's viewer, opened at the word found: its text
 * layer, a scan's recognised text included, decision 113), or its portal page.
 */
function ResultLink({ result, q }: { result: SearchResultJson; q: string }) {
  return result.url.startsWith('/uploads/') ? (
    <Group gap="xs" wrap="wrap">
      <NewTabLink href={result.url} fw={600}>
        {result.title}
      </NewTabLink>
      <ViewDocument
        fileUrl={result.url.split('?')[0]!}
        name={result.title}
        find={wordToFind(result.snippet, q)}
        textState={false}
      />
    </Group>
  ) : (
    <Anchor component={Link} to={result.url} fw={600}>
      {result.title}
    </Anchor>
  );
}

/** What a visitor's empty search adds: people are found after signing in, and the way there, back to this search. */
function SignInForPeople({ q }: { q: string }) {
  const { t } = useTranslation('search');
  const { t: tc } = useTranslation('common');
  return (
    <Text c="gray.8">
      {t('peopleAfterSignIn')}{' '}
      <Anchor component={Link} to={paths.login} state={{ from: paths.search(q) }} fw={600}>
        {tc('nav.login')}
      </Anchor>
    </Text>
  );
}

/**
 * The /search page body (decision 015): kind filters with their counts, results grouped by kind in a fixed order, the
 * matched words marked in each snippet, "show more" by cursor, and the empty state (a visitor's says that people are
 * found after signing in: the server finds them for the signed-in only).
 */
export function SearchResults({
  q,
  kinds,
  onKindsChange,
}: {
  q: string;
  kinds: SearchKind[];
  onKindsChange: (kinds: SearchKind[]) => void;
}) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('search');
  const { t: tc } = useTranslation('common');
  const search = useSearchPages(q, kinds);
  const visitor = !useStoredLogin().token;

  if (!isSearchable(q)) return <EmptyState>{t('prompt', { min: SEARCH_MIN_LENGTH })}</EmptyState>;
  if (search.isError) return <Alert color="red">{t('failed')}</Alert>;
  if (!search.data) return <PanelLoader />;

  const pages = search.data.pages;
  const counts = pages[0]?.counts ?? {};
  // A word found in very many documents: the counts are those of the newest matches, shown as "12+".
  const capped = pages[0]?.countsCapped ?? false;
  const results = pages.flatMap((p) => p.results);
  const total = Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0);
  const present = SEARCH_KINDS.filter((k) => counts[k]);
  const grouped = SEARCH_KINDS.map((kind) => ({ kind, items: results.filter((r) => r.kind === kind) })).filter(
    (g) => g.items.length,
  );

  return (
    <Stack gap="md">
      <Text c="gray.8" aria-live="polite">
        {t('resultsFor', { q })} · {capped ? t('totalCapped', { count: total }) : t('total', { count: total })}
      </Text>
      {present.length > 0 && (
        <Chip.Group multiple value={kinds} onChange={(value) => onKindsChange(value as SearchKind[])}>
          <Group gap="xs" role="group" aria-label={t('filters')}>
            {present.map((kind) => (
              <Chip key={kind} value={kind} size="sm" variant="outline">
                {tc(`search.kind.${kind}`)} ({countLabel(counts[kind] ?? 0, capped)})
              </Chip>
            ))}
            {kinds.length > 0 && (
              <Button size="compact-sm" variant="subtle" onClick={() => onKindsChange([])}>
                {t('all')}
              </Button>
            )}
          </Group>
        </Chip.Group>
      )}
      {results.length === 0 ? (
        <EmptyState action={visitor ? <SignInForPeople q={q} /> : undefined}>{t('empty', { q })}</EmptyState>
      ) : (
        grouped.map(({ kind, items }) => (
          <section key={kind} aria-labelledby={`results-${kind}`}>
            <Title order={2} size="h4" id={`results-${kind}`} mb="xs">
              {tc(`search.kind.${kind}`)}{' '}
              <Badge variant="light" color="gray" size="sm">
                {counts[kind] ? countLabel(counts[kind], capped) : items.length}
              </Badge>
            </Title>
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {items.map((r) => (
                <Paper key={`${r.kind}:${r._id}`} component="li" withBorder p="sm" radius="md">
                  <Group justify="space-between" wrap="nowrap" gap="xs" align="baseline">
                    <ResultLink result={r} q={q} />
                    <Text size="xs" c="gray.7" style={{ whiteSpace: 'nowrap' }}>
                      {formatDate(r.date)}
                    </Text>
                  </Group>
                  <SearchSnippet snippet={r.snippet} mt={4} />
                </Paper>
              ))}
            </Stack>
          </section>
        ))
      )}
      {search.hasNextPage && (
        <Button
          variant="light"
          onClick={() => void search.fetchNextPage()}
          loading={search.isFetchingNextPage}
          style={{ alignSelf: 'center' }}
        >
          {t('more')}
        </Button>
      )}
    </Stack>
  );
}
