import { Alert, Button, Center, Group, Loader, Select, Stack, Table, Text, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { AGEING_BANDS, type AgeingBand, type PendencyJson } from '#shared/schemas/letter.ts';

import { DataTable } from '#web/components/data-table.tsx';
import { DateField } from '#web/components/date-field.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { pendencyExportHref, type PendencyFilter, usePendency } from '../api.ts';
import { PriorityBadge } from './dak-parts.tsx';

function Report({ report }: { report: PendencyJson }) {
  const { formatDate, formatDateTime } = useFormatDate();
  const { t } = useTranslation('letters');
  const period = { from: formatDate(report.from), to: formatDate(report.to) };
  // Ageing (decision 080): letters held now by days since marked.
  const ageingHeaders = AGEING_BANDS.map((b) => `${t('dak.pendency.ageing')}: ${t(`dak.pendency.${b}`)}`);
  return (
    <Stack gap="lg">
      <Text fw={600}>
        {report.group
          ? t('dak.pendency.forGroup', { group: report.group.name, ...period })
          : t('dak.pendency.forLab', period)}
      </Text>
      <section aria-labelledby="pendency-officers">
        <Title order={2} size="h4" mb="xs" id="pendency-officers">
          {t('dak.pendency.byOfficer')}
        </Title>
        {report.officers.length === 0 ? (
          <EmptyState>{t('dak.pendency.empty')}</EmptyState>
        ) : (
          <DataTable
            caption={t('dak.pendency.byOfficer')}
            minWidth={960}
            headers={[
              t('dak.pendency.officer'),
              t('dak.pendency.group'),
              t('dak.pendency.pending'),
              t('dak.pendency.overdue'),
              t('dak.pendency.closed'),
              t('dak.pendency.oldest'),
              ...ageingHeaders,
            ]}
          >
            {report.officers.map((o) => (
              <Table.Tr key={o.officer._id}>
                <Table.Td>
                  {o.officer.name}
                  {o.officer.designation ? (
                    <Text size="xs" c="gray.8">
                      {o.officer.designation}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{o.group?.name ?? t('dak.pendency.noGroup')}</Table.Td>
                <Table.Td>{o.pending}</Table.Td>
                <Table.Td c={o.overdue ? 'red.9' : undefined} fw={o.overdue ? 700 : undefined}>
                  {o.overdue}
                </Table.Td>
                <Table.Td>{o.closed}</Table.Td>
                <Table.Td>{o.oldestSince ? formatDate(o.oldestSince) : t('na')}</Table.Td>
                <AgeingCells ageing={o.ageing} />
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </section>
      <section aria-labelledby="pendency-groups">
        <Title order={2} size="h4" mb="xs" id="pendency-groups">
          {t('dak.pendency.byGroup')}
        </Title>
        {report.groups.length === 0 ? (
          <EmptyState>{t('dak.pendency.empty')}</EmptyState>
        ) : (
          <DataTable
            caption={t('dak.pendency.byGroup')}
            minWidth={760}
            headers={[
              t('dak.pendency.group'),
              t('dak.pendency.pending'),
              t('dak.pendency.overdue'),
              t('dak.pendency.closed'),
              ...ageingHeaders,
            ]}
          >
            {report.groups.map((g) => (
              <Table.Tr key={g.group?._id ?? 'none'}>
                <Table.Td>{g.group?.name ?? t('dak.pendency.noGroup')}</Table.Td>
                <Table.Td>{g.pending}</Table.Td>
                <Table.Td c={g.overdue ? 'red.9' : undefined} fw={g.overdue ? 700 : undefined}>
                  {g.overdue}
                </Table.Td>
                <Table.Td>{g.closed}</Table.Td>
                <AgeingCells ageing={g.ageing} />
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </section>
      <section aria-labelledby="pendency-oldest">
        <Title order={2} size="h4" mb="xs" id="pendency-oldest">
          {t('dak.pendency.oldestTitle')}
        </Title>
        {report.oldest.length === 0 ? (
          <EmptyState>{t('dak.pendency.nothingPending')}</EmptyState>
        ) : (
          <DataTable
            caption={t('dak.pendency.oldestTitle')}
            minWidth={720}
            headers={[
              t('fields.letterId'),
              t('fields.letterSub'),
              t('dak.pendency.with'),
              t('dak.pendency.since'),
              t('dak.pendency.due'),
              t('dak.mark.priority'),
            ]}
          >
            {report.oldest.map((o) => (
              <Table.Tr key={`${o.letter._id}-${o.holder._id}`}>
                <Table.Td>{o.letter.letterId}</Table.Td>
                <Table.Td>{o.letter.letterSub}</Table.Td>
                <Table.Td>
                  {o.holder.name}
                  <Text size="xs" c="gray.8">
                    {o.receivedAt ? t('dak.pendency.received') : t('dak.pendency.notReceived')}
                  </Text>
                </Table.Td>
                <Table.Td>{formatDateTime(o.since)}</Table.Td>
                <Table.Td c={o.overdue ? 'red.9' : undefined} fw={o.overdue ? 700 : undefined}>
                  {o.dueDate ? formatDate(o.dueDate) : t('na')}
                  {o.overdue ? ` (${t('dak.pendency.overdueWord')})` : ''}
                </Table.Td>
                <Table.Td>
                  {o.priority === 'Normal' ? t('dak.priority.Normal') : <PriorityBadge priority={o.priority} />}
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </section>
    </Stack>
  );
}

/** The four ageing bands of a row (0–7, 8–15, 16–30, over 30 days held). */
function AgeingCells({ ageing }: { ageing: Record<AgeingBand, number> }) {
  return (
    <>
      {AGEING_BANDS.map((b) => (
        <Table.Td
          key={b}
          c={b === 'over30' && ageing[b] ? 'red.9' : undefined}
          fw={b === 'over30' && ageing[b] ? 700 : undefined}
        >
          {ageing[b]}
        </Table.Td>
      ))}
    </>
  );
}

/**
 * Pendency (decision 020): per officer and per group, letters held now, held past due, and closed in a period,
 * the oldest pending first; printable (a print stylesheet hides the portal chrome and these controls) and exportable
 * as CSV. `groups` is offered to directors and administrators; an associate director sees their own group.
 */
export function PendencyReport({
  groups,
  more,
}: {
  groups: { _id: string; name: string }[] | null;
  /** What the page shows under the letters' report for the same period and group (e-files', decision 121). */
  more?: (filter: PendencyFilter) => ReactNode;
}) {
  const { t } = useTranslation('letters');
  const [filter, setFilter] = useState<PendencyFilter>({ from: '', to: '', groupId: '' });
  const report = usePendency(filter);
  // A person the server refuses (an employee) is told so alone: no period, print or export above the refusal.
  const refused = report.error instanceof ApiError && report.error.status === 403;
  return (
    <Stack gap="md">
      {!refused && (
        <Group align="flex-end" gap="sm" wrap="wrap" data-print-hide>
          <DateField
            label={t('dak.pendency.from')}
            value={filter.from}
            onChange={(from) => setFilter((f) => ({ ...f, from }))}
            w={180}
          />
          <DateField
            label={t('dak.pendency.to')}
            value={filter.to}
            onChange={(to) => setFilter((f) => ({ ...f, to }))}
            w={180}
          />
          {groups && (
            <Select
              label={t('dak.pendency.group')}
              data={[
                { value: '', label: t('dak.pendency.allGroups') },
                ...groups.map((g) => ({ value: g._id, label: g.name })),
              ]}
              value={filter.groupId}
              onChange={(groupId) => setFilter((f) => ({ ...f, groupId: groupId ?? '' }))}
              allowDeselect={false}
              w={240}
            />
          )}
          <Button variant="default" onClick={() => window.print()}>
            {t('dak.pendency.print')}
          </Button>
          <Button component="a" variant="default" href={pendencyExportHref(filter)} download>
            {t('list.export')}
          </Button>
        </Group>
      )}
      <div aria-live="polite" aria-busy={report.isFetching}>
        {report.isPending ? (
          <Center py="xl">
            <Group gap="sm">
              <Loader size="sm" aria-hidden="true" />
              <Text>{t('dak.pendency.loading')}</Text>
            </Group>
          </Center>
        ) : report.isError ? (
          <Alert color="red" variant="light" role="alert">
            <Text c="gray.9">{serverMessage(report.error) || t('dak.pendency.failed')}</Text>
          </Alert>
        ) : (
          <Report report={report.data} />
        )}
      </div>
      {!refused && more?.(filter)}
    </Stack>
  );
}
