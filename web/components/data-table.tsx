import { type MantineSpacing, Table, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { ScrollTable } from './scroll-table.tsx';

export interface DataTableProps {
  /** The table's name for screen readers (e2e finds tables by it): usually the tab or list title. */
  caption: string;
  /** The column headers, in order. */
  headers: ReactNode[];
  /** Adds the 'Actions' header last; each row then ends with a <RowActions> cell. */
  actions?: boolean;
  /** Below this width the table scrolls sideways instead of squeezing (phones). */
  minWidth: number;
  verticalSpacing?: MantineSpacing;
  /** The rows (Table.Tr). */
  children: ReactNode;
}

/** A striped, bordered table with a spoken caption and column headers: the portal's tables of records. */
export function DataTable({ caption, headers, actions, minWidth, verticalSpacing, children }: DataTableProps) {
  const { t } = useTranslation('common');
  return (
    <ScrollTable label={caption} minWidth={minWidth}>
      <Table striped withTableBorder verticalSpacing={verticalSpacing}>
        <VisuallyHidden component="caption">{caption}</VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            {headers.map((header, i) => (
              <Table.Th key={i} scope="col">
                {header}
              </Table.Th>
            ))}
            {actions && <Table.Th scope="col">{t('rowActions.label')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
