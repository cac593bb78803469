import { Badge, Group, Loader, Pagination, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { CloseGroupJson } from '#shared/schemas/close-group.ts';

import { ConfirmDelete, useConfirmedDelete } from '#web/components/confirm-delete.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { RowActions } from '#web/components/row-actions.tsx';
import { ScrollTable } from '#web/components/scroll-table.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';

import { useAdminCloseGroups, useDeleteCloseGroup } from '../api.ts';
import { CloseGroupDuration, CloseGroupStatusBadge } from './close-group-parts.tsx';

/** Rows per page of the table. */
const PAGE_SIZE = 10;

export interface CloseGroupsTableProps {
  /** Loads a close group into the form for editing. */
  onEdit: (group: CloseGroupJson) => void;
  /** The group in the form now (its row is marked). */
  editingId: string | null;
  /** A close group was deleted (the form lets go of it if it was being edited). */
  onDeleted: (id: string) => void;
}

/** The table of existing close groups (spec §2 Manage Close Groups), a page at a time, with edit and delete. */
export function CloseGroupsTable({ onEdit, editingId, onDeleted }: CloseGroupsTableProps) {
  const { t } = useTranslation('close-groups');
  const [page, setPage] = useState(1);
  const groups = useAdminCloseGroups({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const remove = useDeleteCloseGroup();
  const deletion = useConfirmedDelete<CloseGroupJson>(remove, {
    deleted: (group) => {
      notifications.show({ color: 'green', message: t('admin.deleted') });
      onDeleted(group._id);
    },
    failed: (err) =>
      notifications.show({
        color: 'red',
        title: t('admin.deleteFailed'),
        message: serverMessage(err, t('admin.deleteFailed')),
      }),
  });

  if (groups.isPending) return <Loader role="status" aria-label={t('admin.tableTitle')} />;
  if (groups.isError) {
    return <PanelError>{t('admin.loadFailed')}</PanelError>;
  }
  const { items, total } = groups.data;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (!items.length && page > 1) setPage(pages); // the last row of the last page was deleted
  if (!items.length) return <EmptyState>{t('admin.empty')}</EmptyState>;

  return (
    <>
      <ScrollTable label={t('admin.tableTitle')} minWidth={960}>
        <Table striped highlightOnHover verticalSpacing="sm" aria-label={t('admin.tableTitle')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('admin.columns.groupName')}</Table.Th>
              <Table.Th scope="col">{t('admin.columns.groupPurpose')}</Table.Th>
              <Table.Th scope="col">{t('admin.columns.groupDuration')}</Table.Th>
              <Table.Th scope="col">{t('admin.columns.requestedBy')}</Table.Th>
              <Table.Th scope="col">{t('admin.columns.status')}</Table.Th>
              <Table.Th scope="col">{t('admin.columns.documents')}</Table.Th>
              <Table.Th scope="col">{t('admin.columns.adminRemarks')}</Table.Th>
              <Table.Th scope="col">{t('admin.columns.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((group) => (
              <Table.Tr key={group._id} bg={group._id === editingId ? 'navy.0' : undefined}>
                <Table.Th scope="row" fw={600}>
                  {group.groupName}
                </Table.Th>
                <Table.Td maw={280}>
                  <Text size="sm" lineClamp={3}>
                    {group.groupPurpose}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <CloseGroupDuration group={group} />
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {group.requestedBy.map((m) => (
                      <Badge key={m._id} variant="light" color="gray" tt="none" c="gray.9" title={m.email}>
                        {m.name || m.email}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <CloseGroupStatusBadge status={group.status} />
                </Table.Td>
                <Table.Td>{group.documents.length}</Table.Td>
                <Table.Td maw={220}>
                  <Text size="sm" lineClamp={3}>
                    {group.adminRemarks}
                  </Text>
                </Table.Td>
                <RowActions name={group.groupName} onEdit={() => onEdit(group)} onDelete={() => deletion.ask(group)} />
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {pages > 1 && (
        <Pagination mt="md" total={pages} value={page} onChange={setPage} aria-label={t('admin.pagination')} />
      )}
      <ConfirmDelete
        {...deletion.dialog}
        message={t('admin.confirmDelete', { name: deletion.toDelete?.groupName ?? '' })}
      />
    </>
  );
}
