import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ConfirmDeleteProps {
  opened: boolean;
  /** The question, in the spec's words where it has them (e.g. 'Delete this letter?'). */
  message: string;
  onConfirm: () => void;
  onCancel: () => void;
  loading?: boolean;
  title?: string;
  /** The confirm button's word when the action is not a deletion, e.g. 'Remove' for "Remove … from the group?". */
  confirmLabel?: string;
}

/** Every delete asks first (spec §5 Confirmations). Cancel has the focus, so Enter never deletes by accident. */
export function ConfirmDelete({
  opened,
  message,
  onConfirm,
  onCancel,
  loading,
  title,
  confirmLabel,
}: ConfirmDeleteProps) {
  const { t } = useTranslation('common');
  return (
    <Modal opened={opened} onClose={onCancel} title={title ?? t('confirmDelete.title')} centered>
      <Text mb="lg">{message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} data-autofocus>
          {t('confirmDelete.cancel')}
        </Button>
        <Button color="red.9" onClick={onConfirm} loading={loading}>
          {confirmLabel ?? t('confirmDelete.confirm')}
        </Button>
      </Group>
    </Modal>
  );
}
