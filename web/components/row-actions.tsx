import { Button, Group, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface RowActionsProps {
  /** What the row is called: the buttons are named "Edit {name}" and "Delete {name}" (WCAG 2.4.6, e2e). */
  name: string;
  onEdit: () => void;
  /** Opens the confirmation (spec §5: every delete asks first). */
  onDelete: () => void;
}

/** The last cell of a record's row: Edit and Delete. */
export function RowActions({ name, onEdit, onDelete }: RowActionsProps) {
  const { t } = useTranslation('common');
  return (
    <Table.Td>
      <Group gap="xs" wrap="nowrap">
        <Button size="xs" variant="light" onClick={onEdit} aria-label={t('rowActions.editNamed', { name })}>
          {t('rowActions.edit')}
        </Button>
        <Button
          size="xs"
          variant="outline"
          color="red.9"
          onClick={onDelete}
          aria-label={t('rowActions.deleteNamed', { name })}
        >
          {t('rowActions.delete')}
        </Button>
      </Group>
    </Table.Td>
  );
}
