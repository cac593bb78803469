import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { AcknowledgementReportJson } from '#shared/schemas/acknowledgements.ts';

import { DataTable } from '#web/components/data-table.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { PageTitle } from '#web/components/page-title.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';
import { paths } from '#web/lib/paths.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { acknowledgementExportHref, useAcknowledgementReport, usePendingAcknowledgements } from '../api.ts';
import { audienceText, OwnerLine, percentOf } from './acknowledgement-parts.tsx';

function Stat({ label, value, tone }: { label: string; value: string | number; tone?: 'red' | 'green' }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text size="sm" c="gray.8">
        {label}
      </Text>
      <Text size="xl" fw={700} c={tone === 'red' ? 'red.9' : tone === 'green' ? 'green.9' : 'gray.9'}>
        {value}
      </Text>
    </Paper>
  );
}

/** Per group: audience, acknowledged, pending, overdue and the share acknowledged, with a bar. */
function GroupCounts({ report }: { report: AcknowledgementReportJson }) {
  const { t } = useTranslation('acknowledgements');
  return (
    <section aria-labelledby="acknowledgement-groups">
      <Title order={2} size="h4" mb="xs" id="acknowledgement-groups">
        {t('report.byGroup')}
      </Title>
      <DataTable
        caption={t('report.byGroup')}
        minWidth={600}
        // The share acknowledged next to the group: on a phone the table scrolls sideways, and it is what is read.
        headers={[
          t('report.group'),
          t('report.percent'),
          t('report.audienceSize'),
          t('report.acknowledged'),
          t('report.pending'),
          t('report.overdue'),
        ]}
      >
        {report.groups.map((g) => {
          const audience = g.acknowledged + g.pending;
          const percent = percentOf(g.acknowledged, audience);
          const name = g.group?.name ?? t('report.noGroup');
          return (
            <Table.Tr key={g.group?._id ?? 'none'}>
              <Table.Td>{name}</Table.Td>
              <Table.Td miw={140}>
                <Text size="sm" fw={600}>
                  {t('report.percentValue', { percent })}
                </Text>
                <Progress
                  value={percent}
                  color={percent === 100 ? 'green.9' : 'navy.7'}
                  aria-label={t('report.percentLabel', { group: name, percent })}
                />
              </Table.Td>
              <Table.Td>{audience}</Table.Td>
              <Table.Td>{g.acknowledged}</Table.Td>
              <Table.Td>{g.pending}</Table.Td>
              <Table.Td c={g.overdue ? 'red.9' : undefined} fw={g.overdue ? 700 : undefined}>
                {g.overdue}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </DataTable>
      <Text size="xs" c="gray.8" mt={4}>
        {t('report.pendingNote')}
      </Text>
    </section>
  );
}

/** Who has not acknowledged, overdue first, a page at a time; a group may be chosen when the report has several. */
function NotYetAcknowledged({ report }: { report: AcknowledgementReportJson }) {
  const { formatDate, formatDateTime } = useFormatDate();
  const { t } = useTranslation('acknowledgements');
  const [group, setGroup] = useState('');
  const pending = usePendingAcknowledgements(report._id, group);
  const rows = pending.data?.pages.flat() ?? [];
  const choosable = report.groups.filter((g) => g.group && g.pending > 0);
  const total = group ? (report.groups.find((g) => g.group?._id === group)?.pending ?? 0) : report.totals.pending;
  return (
    <section aria-labelledby="acknowledgement-pending">
      <Group justify="space-between" align="flex-end" mb="xs" gap="sm">
        <Title order={2} size="h4" id="acknowledgement-pending">
          {t('report.notYet')}
        </Title>
        {!report.onlyGroup && choosable.length > 1 && (
          <Select
            label={t('report.filterGroup')}
            data={[
              { value: '', label: t('report.allGroups') },
              ...choosable.map((g) => ({ value: g.group!._id, label: g.group!.name })),
            ]}
            value={group}
            onChange={(value) => setGroup(value ?? '')}
            allowDeselect={false}
            comboboxProps={{ withinPortal: false }}
            w={260}
          />
        )}
      </Group>
      <div aria-live="polite" aria-busy={pending.isFetching}>
        {pending.isPending ? (
          <PanelLoader />
        ) : pending.isError ? (
          <Alert color="red" variant="light" role="alert">
            <Text c="gray.9">{serverMessage(pending.error) || t('report.notYetFailed')}</Text>
          </Alert>
        ) : rows.length === 0 ? (
          <EmptyState>{t('report.notYetEmpty')}</EmptyState>
        ) : (
          <Text size="sm" c="gray.8" mb={4}>
            {t('report.shown', { shown: rows.length, total })}
          </Text>
        )}
      </div>
      {rows.length > 0 && (
        <DataTable
          caption={t('report.notYet')}
          minWidth={680}
          // Overdue or not next to the name: on a phone the table scrolls sideways.
          headers={[
            t('report.name'),
            t('report.status'),
            t('report.dueOn'),
            t('report.group'),
            t('report.designation'),
          ]}
        >
          {rows.map((row) => (
            <Table.Tr key={row._id}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {row.user.name}
                </Text>
                <Text size="xs" c="gray.8" style={{ overflowWrap: 'anywhere' }}>
                  {row.user.email}
                </Text>
              </Table.Td>
              <Table.Td>
                {row.overdue ? (
                  <Badge color="red.9" variant="filled" radius="sm" tt="none">
                    {t('report.statusOverdue')}
                  </Badge>
                ) : (
                  <Badge color="gray.8" variant="outline" radius="sm" tt="none">
                    {t('report.statusPending')}
                  </Badge>
                )}
                <Text size="xs" c="gray.8" mt={2}>
                  {row.openedAt ? t('report.opened', { when: formatDateTime(row.openedAt) }) : t('report.notOpened')}
                </Text>
              </Table.Td>
              <Table.Td>{formatDate(row.dueOn)}</Table.Td>
              <Table.Td>{row.group?.name ?? t('report.noGroup')}</Table.Td>
              <Table.Td>{row.user.designation}</Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
      {pending.hasNextPage && (
        <Group justify="center" mt="sm">
          <Button variant="default" onClick={() => void pending.fetchNextPage()} loading={pending.isFetchingNextPage}>
            {t('report.loadMore')}
          </Button>
        </Group>
      )}
    </section>
  );
}

/**
 * One acknowledgement report (decision 074): the notice or circular, its deadline and audience, the totals, the
 * counts of each group with the share acknowledged, who has not acknowledged (overdue first) and the CSV of everyone.
 * A group head who did not publish it sees their own group's part (the server decides, `onlyGroup`).
 */
export function RequestReport({ id }: { id: string }) {
  const { formatDate, formatDateTime } = useFormatDate();
  const { t } = useTranslation(['acknowledgements', 'common']);
  const report = useAcknowledgementReport(id);
  const data = report.data;
  const back = (
    <Anchor component={Link} to={paths.acknowledgementRequests} underline="always" size="sm">
      {t('report.back')}
    </Anchor>
  );
  if (!data)
    return (
      <>
        <PageTitle>{t('report.titleLoading')}</PageTitle>
        {report.isError ? (
          <Stack gap="sm" align="flex-start">
            <Alert color="red" variant="light" role="alert">
              <Text c="gray.9">{serverMessage(report.error) || t('report.failed')}</Text>
            </Alert>
            {back}
          </Stack>
        ) : (
          <PanelLoader />
        )}
      </>
    );

  const { document: doc, totals } = data;
  const percent = percentOf(totals.acknowledged, totals.audience);
  return (
    <>
      <PageTitle mb={4} style={{ overflowWrap: 'anywhere' }}>
        {t('report.title', { name: doc.name })}
      </PageTitle>
      <Group gap="xs" mb="md">
        <Badge color="gray.8" variant="outline" radius="sm" tt="none">
          {t(`kinds.${doc.kind}`)}
        </Badge>
        <OwnerLine owner={doc.owner} />
      </Group>
      <Stack gap="lg">
        <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={4} m={0}>
          <div>
            <Text component="dt" size="sm" fw={600}>
              {t('report.deadline')}
            </Text>
            <Text component="dd" size="sm" m={0}>
              {formatDate(data.deadline)}
            </Text>
          </div>
          <div>
            <Text component="dt" size="sm" fw={600}>
              {t('report.audience')}
            </Text>
            <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
              {audienceText(data.audience, t)}
            </Text>
          </div>
          <div>
            <Text component="dt" size="sm" fw={600}>
              {t('report.publishedBy')}
            </Text>
            <Text component="dd" size="sm" m={0}>
              {data.publishedBy?.name ?? t('common:notAvailable')}
            </Text>
          </div>
          <div>
            <Text component="dt" size="sm" fw={600}>
              {t('report.publishedOn')}
            </Text>
            <Text component="dd" size="sm" m={0}>
              {formatDateTime(data.publishedAt)}
            </Text>
          </div>
        </SimpleGrid>
        {data.onlyGroup && (
          <Alert color="navy" variant="light">
            <Text c="gray.9" size="sm">
              {t('report.onlyGroup', { name: data.onlyGroup.name })}
            </Text>
          </Alert>
        )}
        <section aria-labelledby="acknowledgement-totals">
          <Group justify="space-between" align="center" mb="xs" gap="sm">
            <Title order={2} size="h4" id="acknowledgement-totals">
              {t('report.totals')}
            </Title>
            <Button component="a" href={acknowledgementExportHref(data._id)} download variant="default">
              {t('report.downloadCsv')}
            </Button>
          </Group>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            <Stat label={t('report.audienceSize')} value={totals.audience} />
            <Stat
              label={t('report.acknowledged')}
              value={`${totals.acknowledged} (${t('report.percentValue', { percent })})`}
              tone={percent === 100 ? 'green' : undefined}
            />
            <Stat label={t('report.pending')} value={totals.pending} />
            <Stat label={t('report.overdue')} value={totals.overdue} tone={totals.overdue ? 'red' : undefined} />
          </SimpleGrid>
        </section>
        <GroupCounts report={data} />
        <NotYetAcknowledged report={data} />
        <div>{back}</div>
      </Stack>
    </>
  );
}
