import { Button, Group, Loader, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { DateField } from '#web/components/date-field.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { Pager } from '#web/components/pager.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { ScrollTable } from '#web/components/scroll-table.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { actionText } from '../action-text.ts';
import { type LogsFilter, useActivityLogs, usePeopleOptions } from '../api.ts';

export const LOGS_PAGE_SIZE = 20;

/** The user filter: type a name or email, the server finds the accounts (any status: their history stays). */
function UserFilter({
  value,
  onChange,
}: {
  value: { id: string; label: string } | null;
  onChange: (next: { id: string; label: string } | null) => void;
}) {
  const { t } = useTranslation('people');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const people = usePeopleOptions(debounced);
  const options = (people.data?.items ?? []).map((u) => ({
    value: u._id,
    label: `${u.personalDetails.name} (${u.email})`,
  }));
  if (value && !options.some((o) => o.value === value.id)) options.unshift({ value: value.id, label: value.label });
  return (
    <Select
      label={t('logs.user')}
      placeholder={t('logs.userPlaceholder')}
      searchable
      clearable
      data={options}
      value={value?.id ?? null}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      nothingFoundMessage={people.isFetching ? t('common:loading') : t('manage.empty')}
      onChange={(id, option) => onChange(id && option ? { id, label: option.label } : null)}
    />
  );
}

/**
 * Admin Activity Logs (spec §2): a table of name, email, action and timestamp, newest first, searched (name, email,
 * action), filtered by user and dates, and paged by the server. Timestamps on a 12-hour clock, Indian style.
 */
export function ActivityLogs() {
  const { formatDateTime } = useFormatDate();
  const { t, i18n } = useTranslation(['people', 'common']);
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text.trim(), 300);
  const [user, setUser] = useState<{ id: string; label: string } | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const filter: LogsFilter = { q, userId: user?.id ?? '', from, to };
  const logs = useActivityLogs(filter, { limit: LOGS_PAGE_SIZE, offset: (page - 1) * LOGS_PAGE_SIZE });
  const pages = Math.max(1, Math.ceil((logs.data?.total ?? 0) / LOGS_PAGE_SIZE));
  const filtered = Boolean(text || user || from || to);
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  // A refused filter (400) is worded by the server; any other failure by us.
  const error =
    logs.error instanceof ApiError && logs.error.status === 400
      ? serverMessage(logs.error, t('logs.loadFailed'))
      : t('logs.loadFailed');

  return (
    <Stack gap="md">
      <form role="search" aria-label={t('logs.title')} onSubmit={(event) => event.preventDefault()}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          <TextInput
            label={t('logs.search')}
            type="search"
            value={text}
            maxLength={200}
            onChange={(event) => changed(setText)(event.currentTarget.value)}
          />
          <UserFilter value={user} onChange={changed(setUser)} />
          <DateField label={t('logs.from')} value={from} onChange={changed(setFrom)} maxDate={to || undefined} />
          <DateField label={t('logs.to')} value={to} onChange={changed(setTo)} minDate={from || undefined} />
        </SimpleGrid>
      </form>

      <Group justify="space-between" mih={36}>
        <Text c="gray.8" role="status">
          {logs.isPending
            ? t('logs.loading')
            : logs.data
              ? logs.data.capped
                ? t('logs.countCapped', { count: logs.data.total })
                : t('logs.count', { count: logs.data.total })
              : ''}
        </Text>
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setText('');
              setUser(null);
              setFrom('');
              setTo('');
              setPage(1);
            }}
          >
            {t('logs.clear')}
          </Button>
        )}
      </Group>

      {logs.isPending ? (
        <Loader aria-hidden="true" />
      ) : logs.isError ? (
        <PanelError>{error}</PanelError>
      ) : logs.data.items.length === 0 ? (
        <EmptyState>{t('logs.empty')}</EmptyState>
      ) : (
        <>
          <Stack
            gap="xs"
            hiddenFrom="sm"
            component="ol"
            p={0}
            m={0}
            style={{ listStyle: 'none', opacity: logs.isPlaceholderData ? 0.6 : 1 }}
            aria-busy={logs.isPlaceholderData}
            aria-label={t('logs.tableCaption')}
          >
            {logs.data.items.map((entry) => (
              <Paper key={entry._id} component="li" withBorder radius="md" p="sm">
                <Text size="sm" c="gray.8">
                  <time dateTime={entry.timestamp}>{formatDateTime(entry.timestamp)}</time>
                </Text>
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {actionText(entry, i18n.language, t)}
                </Text>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {entry.userId ? `${entry.userId.name} · ${entry.userId.email}` : t('logs.unknownUser')}
                </Text>
              </Paper>
            ))}
          </Stack>
          <ScrollTable label={t('logs.tableCaption')} minWidth={720} visibleFrom="sm">
            <Table striped highlightOnHover verticalSpacing="sm" aria-busy={logs.isPlaceholderData}>
              <Table.Caption>{t('logs.tableCaption')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('logs.name')}</Table.Th>
                  <Table.Th scope="col">{t('logs.email')}</Table.Th>
                  <Table.Th scope="col">{t('logs.action')}</Table.Th>
                  <Table.Th scope="col">{t('logs.timestamp')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              {/* Only the rows fade while the next page loads: a faded grey caption fell below 4.5:1. */}
              <Table.Tbody style={{ opacity: logs.isPlaceholderData ? 0.6 : 1 }}>
                {logs.data.items.map((entry) => (
                  <Table.Tr key={entry._id}>
                    <Table.Td>
                      {entry.userId?.name ?? (
                        <Text span c="gray.8" fs="italic" size="sm">
                          {t('logs.unknownUser')}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{entry.userId?.email ?? ''}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{actionText(entry, i18n.language, t)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <time dateTime={entry.timestamp}>{formatDateTime(entry.timestamp)}</time>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        </>
      )}

      <Pager total={pages} value={page} onChange={setPage} label={t('logs.pages')} />
    </Stack>
  );
}
