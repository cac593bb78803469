import { Alert, Center, Group, Loader, Table, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { DataTable } from '#web/components/data-table.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { type EfilePendencyFilter, useEfilePendency } from '../api.ts';

/**
 * Pendency of e-files (decision 121), shown under the dak's with its period and group: per officer, the files with them
 * now — in transit to them, parked, past due — and those they closed in the period, the longest waiting first.
 */
export function EfilePendency({ filter }: { filter: EfilePendencyFilter }) {
  const { t } = useTranslation('efiles');
  const { formatDate } = useFormatDate();
  const headingId = useId();
  const report = useEfilePendency(filter);
  return (
    <section aria-labelledby={headingId} aria-busy={report.isFetching}>
      <Title order={2} size="h4" mb="xs" id={headingId}>
        {t('pendency.title')}
      </Title>
      {report.isPending ? (
        <Center py="md">
          <Group gap="sm">
            <Loader size="sm" aria-hidden="true" />
            <Text>{t('pendency.loading')}</Text>
          </Group>
        </Center>
      ) : report.isError ? (
        <Alert color="red" variant="light" role="alert">
          <Text c="gray.9">{serverMessage(report.error, t('failed'))}</Text>
        </Alert>
      ) : report.data.officers.length === 0 ? (
        <EmptyState>{t('pendency.empty')}</EmptyState>
      ) : (
        <DataTable
          caption={t('pendency.title')}
          minWidth={900}
          headers={[
            t('pendency.officer'),
            t('pendency.group'),
            t('pendency.held'),
            t('pendency.inTransit'),
            t('pendency.parked'),
            t('pendency.overdue'),
            t('pendency.closed'),
            t('pendency.oldest'),
          ]}
        >
          {report.data.officers.map((o) => (
            <Table.Tr key={o.officer._id}>
              <Table.Td>
                {o.officer.name}
                {o.officer.designation ? (
                  <Text size="xs" c="gray.8">
                    {o.officer.designation}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>{o.group?.name ?? t('pendency.noGroup')}</Table.Td>
              <Table.Td>{o.held}</Table.Td>
              <Table.Td>{o.inTransit}</Table.Td>
              <Table.Td>{o.parked}</Table.Td>
              <Table.Td c={o.overdue ? 'red.9' : undefined} fw={o.overdue ? 700 : undefined}>
                {o.overdue}
              </Table.Td>
              <Table.Td>{o.closed}</Table.Td>
              <Table.Td>{o.oldestSince ? formatDate(o.oldestSince) : '—'}</Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
