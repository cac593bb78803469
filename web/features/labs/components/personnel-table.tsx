import { Anchor, Button, Stack, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { DataTable } from '#web/components/data-table.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { paths } from '#web/lib/paths.ts';

export interface PersonnelRow {
  _id: string;
  name: string;
  email: string;
}

export interface PersonnelTableProps {
  /** Staff names and emails are for signed-in staff only (decision 010): a visitor is asked to log in. */
  signedIn: boolean;
  people: PersonnelRow[] | undefined;
  loading?: boolean;
  failed?: boolean;
  /** The # of the first row (the list pages on the server). */
  firstNumber?: number;
  /** Paging controls under the table. */
  footer?: ReactNode;
}

/** Personnel Details (spec §2): #, Name, Email; 'No users found.' */
export function PersonnelTable({ signedIn, people, loading, failed, firstNumber = 1, footer }: PersonnelTableProps) {
  const { t } = useTranslation('lab');
  if (!signedIn)
    return (
      <EmptyState
        action={
          <Button component={Link} to={paths.login}>
            {t('personnel.login')}
          </Button>
        }
      >
        {t('personnel.signInFirst')}
      </EmptyState>
    );
  if (failed) return <PanelError>{t('personnel.failed')}</PanelError>;
  if (loading) return <EmptyState>{t('loading')}</EmptyState>;
  if (!people?.length) return <EmptyState>{t('personnel.empty')}</EmptyState>;
  return (
    <Stack gap="md">
      <DataTable caption={t('tabs.personnel')} minWidth={420} headers={['#', t('fields.name'), t('fields.email')]}>
        {people.map((p, i) => (
          <Table.Tr key={p._id}>
            <Table.Td>{firstNumber + i}</Table.Td>
            <Table.Td>{p.name}</Table.Td>
            <Table.Td>
              <Anchor href={`mailto:${p.email}`}>{p.email}</Anchor>
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      {footer}
    </Stack>
  );
}
