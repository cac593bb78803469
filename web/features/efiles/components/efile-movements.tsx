import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { ScrollTable } from '#web/components/scroll-table.tsx';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useEfileMovements } from '../api.ts';

/** Only a sending is received: an opening, a parking or a closing is labelled by its action alone (decision 121). */
const sending = (kind: string) => kind === 'sent' || kind === 'returned';

/** The movement history (decision 107): created, sent, returned, pulled back, parked, resumed, closed, reopened. */
export function EfileMovements({ fileId }: { fileId: string }) {
  const { t } = useTranslation('efiles');
  const { formatDate, formatDateTime } = useFormatDate();
  const movements = useEfileMovements(fileId);
  if (movements.isPending) return <Text size="sm">{t('loading')}</Text>;
  if (movements.isError) return <Text size="sm">{t('failed')}</Text>;
  return (
    <ScrollTable label={t('history.title')} minWidth={640}>
      <Table striped fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('history.when')}</Table.Th>
            <Table.Th>{t('history.what')}</Table.Th>
            <Table.Th>{t('history.from')}</Table.Th>
            <Table.Th>{t('history.to')}</Table.Th>
            <Table.Th>{t('history.remarks')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {movements.data.map((m) => (
            <Table.Tr key={m._id}>
              <Table.Td>{formatDateTime(m.at)}</Table.Td>
              <Table.Td>
                {t(`history.kinds.${m.kind}`)}
                {m.kind === 'sent' && m.priority !== 'Normal' ? ` · ${t(`priority.${m.priority}`)}` : ''}
                {m.dueDate ? ` · ${t('history.due', { date: formatDate(m.dueDate) })}` : ''}
                {sending(m.kind) && m.receivedAt
                  ? ` · ${t('history.received', { when: formatDateTime(m.receivedAt) })}`
                  : ''}
              </Table.Td>
              <Table.Td>{m.from?.name ?? '—'}</Table.Td>
              <Table.Td>{m.to?.name ?? '—'}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{m.remarks || '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
