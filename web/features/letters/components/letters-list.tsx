import { Alert, Button, Center, Group, Loader, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import type { LetterJson } from '#shared/schemas/letter.ts';

import { ConfirmDelete, useConfirmedDelete } from '#web/components/confirm-delete.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';

import { exportHref, useLetterPages, usePurgeLetter, useRecycleBin, useRestoreLetter } from '../api.ts';
import { LetterCard } from './letter-card.tsx';

/** Loads the next page when its sentinel scrolls into view (the button stays for keyboards and screen readers). */
function useLoadOnScroll(load: () => void, enabled: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = ref.current;
    if (!node || !enabled || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && load(), {
      rootMargin: '400px',
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [load, enabled]);
  return ref;
}

/** spec §8 Letters, list: the server's error field, else our sentence, and what to do next. */
function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('letters');
  return (
    <Alert color="red" variant="light" role="alert" title={serverMessage(error) || t('list.failed')}>
      <Stack gap="xs" align="flex-start">
        <Text c="gray.9">{t('list.failedHelp')}</Text>
        <Button variant="default" size="xs" onClick={onRetry}>
          {t('list.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

function Correspondence() {
  const { t } = useTranslation('letters');
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const [debounced] = useDebouncedValue(text.trim(), 300);
  const pages = useLetterPages(debounced);
  const letters = pages.data?.pages.flatMap((p) => p.letters) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const sentinel = useLoadOnScroll(loadMore, Boolean(hasNextPage));

  // The search lives in the address too, so a result can be bookmarked or shared.
  useEffect(() => {
    const current = params.get('q') ?? '';
    if (current !== debounced) setParams(debounced ? { q: debounced } : {}, { replace: true });
  }, [debounced, params, setParams]);

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          type="search"
          label={t('list.searchLabel')}
          description={t('list.searchHint')}
          placeholder={t('list.searchPlaceholder')}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          style={{ flex: '1 1 20rem' }}
        />
        <Button component="a" href={exportHref(debounced)} variant="default" download>
          {t('list.export')}
        </Button>
      </Group>
      <div aria-live="polite" aria-busy={pages.isFetching}>
        {pages.isPending ? (
          <Center py="xl">
            <Group gap="sm">
              <Loader size="sm" aria-hidden="true" />
              <Text>{t('list.loading')}</Text>
            </Group>
          </Center>
        ) : pages.isError ? (
          <LoadFailed error={pages.error} onRetry={() => void pages.refetch()} />
        ) : letters.length === 0 ? (
          <EmptyState>{t('list.empty')}</EmptyState>
        ) : (
          <Text size="sm" c="gray.8">
            {hasNextPage ? t('list.shownMore', { count: letters.length }) : t('list.shown', { count: letters.length })}
          </Text>
        )}
      </div>
      {letters.length > 0 && (
        <Stack component="ul" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
          {letters.map((letter) => (
            <li key={letter._id}>
              <LetterCard letter={letter} />
            </li>
          ))}
        </Stack>
      )}
      {hasNextPage && (
        <Group justify="center" ref={sentinel}>
          <Button variant="default" onClick={loadMore} loading={isFetchingNextPage}>
            {t('list.loadMore')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function RecycleBin() {
  const { t } = useTranslation('letters');
  const bin = useRecycleBin(true);
  const restore = useRestoreLetter();
  const purge = usePurgeLetter();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const letters = bin.data?.pages.flat() ?? [];

  const onRestore = (letter: LetterJson) =>
    restore.mutate(letter._id, {
      onSuccess: () => setMessage({ ok: true, text: t('bin.restored', { letterId: letter.letterId }) }),
      onError: (err) => setMessage({ ok: false, text: serverMessage(err) || t('bin.failed') }),
    });
  const purging = useConfirmedDelete<LetterJson>(purge, {
    deleted: (letter) => setMessage({ ok: true, text: t('bin.purged', { letterId: letter.letterId }) }),
    failed: (err) => setMessage({ ok: false, text: serverMessage(err) || t('bin.failed') }),
  });

  return (
    <Stack gap="md">
      <Text c="gray.8">{t('bin.intro')}</Text>
      {message && (
        <Alert color={message.ok ? 'green' : 'red'} variant="light" role="status">
          <Text c="gray.9">{message.text}</Text>
        </Alert>
      )}
      {bin.isPending ? (
        <Center py="xl">
          <Loader role="status" aria-label={t('list.loading')} />
        </Center>
      ) : bin.isError ? (
        <LoadFailed error={bin.error} onRetry={() => void bin.refetch()} />
      ) : letters.length === 0 ? (
        <EmptyState>{t('bin.empty')}</EmptyState>
      ) : (
        <Stack component="ul" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
          {letters.map((letter) => (
            <li key={letter._id}>
              <LetterCard
                letter={letter}
                actions={
                  <>
                    <Button
                      variant="light"
                      onClick={() => onRestore(letter)}
                      loading={restore.isPending && restore.variables === letter._id}
                      aria-label={t('bin.restoreLabel', { letterId: letter.letterId })}
                    >
                      {t('bin.restore')}
                    </Button>
                    <Button
                      color="red.9"
                      variant="outline"
                      onClick={() => purging.ask(letter)}
                      aria-label={t('bin.purgeLabel', { letterId: letter.letterId })}
                    >
                      {t('bin.purge')}
                    </Button>
                  </>
                }
              />
            </li>
          ))}
        </Stack>
      )}
      {bin.hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={() => void bin.fetchNextPage()} loading={bin.isFetchingNextPage}>
            {t('list.loadMore')}
          </Button>
        </Group>
      )}
      <ConfirmDelete {...purging.dialog} title={t('bin.purgeTitle')} message={t('bin.confirmPurge')} />
    </Stack>
  );
}

/**
 * Letters & Correspondence (spec §2 /allLetter): one search box, searched on the server, newest upload first, more
 * letters as the reader scrolls, CSV export of the results; administrators also get the recycle bin.
 */
export function LettersList({ showRecycleBin }: { showRecycleBin: boolean }) {
  const { t } = useTranslation('letters');
  if (!showRecycleBin) return <Correspondence />;
  return (
    <Tabs defaultValue="letters" keepMounted={false}>
      <Tabs.List mb="md">
        <Tabs.Tab value="letters">{t('tabs.letters')}</Tabs.Tab>
        <Tabs.Tab value="bin">{t('tabs.recycleBin')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="letters">
        <Correspondence />
      </Tabs.Panel>
      <Tabs.Panel value="bin">
        <RecycleBin />
      </Tabs.Panel>
    </Tabs>
  );
}
