import { Anchor, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import type { DirectorEntryJson, OfficeMemberJson } from '#shared/schemas/unit.ts';

import { useFormatDate } from '#web/lib/use-format-date.ts';

import { DataTable } from '../data-table.tsx';
import { EmptyState } from '../empty-state.tsx';
import { RowActions } from '../row-actions.tsx';

// The tables of the lab's and a group's tabs, apart from the other panels: the lab home loads them (and Mantine's
// table with its scroll area) only when a table tab is opened.

export interface OfficeTableProps {
  office: OfficeMemberJson[];
  caption: string;
  /** Shown when the office is empty ('No director office data available.'). */
  empty: string;
  /** Given (the office manager): each row ends with Edit and Delete. */
  onEdit?: (member: OfficeMemberJson) => void;
  onDelete?: (member: OfficeMemberJson) => void;
}

/** O/o Director / O/o Group Leader: Name, Designation, Contact Number, Email, or the caller's empty text. */
export function OfficeTable({ office, caption, empty, onEdit, onDelete }: OfficeTableProps) {
  const { t } = useTranslation('common');
  if (!office.length) return <EmptyState>{empty}</EmptyState>;
  const editable = Boolean(onEdit && onDelete);
  return (
    <DataTable
      caption={caption}
      minWidth={editable ? 640 : 560}
      verticalSpacing={editable ? 'sm' : undefined}
      headers={[t('unit.name'), t('unit.designation'), t('unit.contactNumber'), t('unit.email')]}
      actions={editable}
    >
      {office.map((m) => (
        <Table.Tr key={m._id}>
          <Table.Td>{m.name}</Table.Td>
          <Table.Td>{m.designation}</Table.Td>
          <Table.Td>{m.contactNumber}</Table.Td>
          <Table.Td>{m.email ? <Anchor href={`mailto:${m.email}`}>{m.email}</Anchor> : null}</Table.Td>
          {onEdit && onDelete && <RowActions name={m.name} onEdit={() => onEdit(m)} onDelete={() => onDelete(m)} />}
        </Table.Tr>
      ))}
    </DataTable>
  );
}

/** Role & Honour: #, Name (with the designation), From, To ('Present' while open); 'No data available'. */
export function DirectorHistoryTable({ history, caption }: { history: DirectorEntryJson[]; caption: string }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('common');
  if (!history.length) return <EmptyState>{t('unit.noData')}</EmptyState>;
  return (
    <DataTable caption={caption} minWidth={480} headers={['#', t('unit.name'), t('unit.from'), t('unit.to')]}>
      {history.map((d, i) => (
        <Table.Tr key={d._id}>
          <Table.Td>{i + 1}</Table.Td>
          <Table.Td>
            {d.name}
            <Text span size="sm" c="gray.7" display="block">
              {d.designation}
            </Text>
          </Table.Td>
          <Table.Td>{formatDate(d.from)}</Table.Td>
          <Table.Td>{d.to ? formatDate(d.to) : t('unit.present')}</Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
