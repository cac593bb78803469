import { Button, Group, Stack, Tabs, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { EFILE_BOXES, type EfileBox } from '#shared/schemas/efile.ts';

import { useEfileBox, useEfileSearch } from '../api.ts';
import { EfileList } from './efile-list.tsx';
import { NewFileDialog } from './new-file-dialog.tsx';

function Box({ box }: { box: EfileBox }) {
  const { t } = useTranslation('efiles');
  const pages = useEfileBox(box);
  const files = pages.data?.pages.flatMap((p) => p.files);
  return (
    <Stack gap="sm">
      <EfileList query={{ ...pages, data: files }} empty={t(`boxes.${box}Empty`)} />
      {pages.hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={() => void pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
            {t('list.loadMore')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function SearchResults({ q }: { q: string }) {
  const { t } = useTranslation('efiles');
  return <EfileList query={useEfileSearch(q)} empty={t('search.none', { q })} />;
}

/**
 * My files (/efiles, decision 107): with me, created by me, sent by me and not yet received, parked, closed, copies for
 * information — each the server's page, latest moved first — a search of the files I may see, and "New file".
 */
export function MyFiles() {
  const { t } = useTranslation('efiles');
  const [box, setBox] = useState<EfileBox>('with_me');
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [error, setError] = useState('');
  const [creating, setCreating] = useState(false);
  const search = (event: FormEvent) => {
    event.preventDefault();
    const text = typed.trim();
    if (text && text.length < 2) {
      setError(t('search.tooShort'));
      return;
    }
    setError('');
    setQ(text);
  };
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <form onSubmit={search} role="search" aria-label={t('search.label')} noValidate>
          <Group gap="xs" align="flex-end">
            <TextInput
              label={t('search.label')}
              description={t('search.hint')}
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
              error={error || undefined}
              w={{ base: '100%', sm: 360 }}
            />
            <Button type="submit" variant="light">
              {t('search.button')}
            </Button>
            {q && (
              <Button
                variant="subtle"
                onClick={() => {
                  setTyped('');
                  setQ('');
                }}
              >
                {t('search.clear')}
              </Button>
            )}
          </Group>
        </form>
        <Button onClick={() => setCreating(true)}>{t('create.button')}</Button>
      </Group>
      {q ? (
        <SearchResults q={q} />
      ) : (
        <Tabs value={box} onChange={(v) => v && setBox(v as EfileBox)} keepMounted={false}>
          <Tabs.List mb="md">
            {EFILE_BOXES.map((b) => (
              <Tabs.Tab key={b} value={b}>
                {t(`boxes.${b}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {EFILE_BOXES.map((b) => (
            <Tabs.Panel key={b} value={b}>
              <Box box={b} />
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
      {creating && <NewFileDialog onClose={() => setCreating(false)} />}
    </Stack>
  );
}
