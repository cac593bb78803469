import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
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

/** A delete mutation of a list's rows, called with the row's id (what TanStack Query's useMutation returns). */
interface RowRemoval {
  mutate: (
    id: string,
    callbacks: { onSuccess: () => void; onError: (err: Error) => void; onSettled: () => void },
  ) => void;
  isPending: boolean;
}

/**
 * "Ask, then delete" for the rows of a list: `ask(row)` opens the dialog, whose props are `dialog`; Delete runs
 * `remove` with the row's id, then `deleted(row)` or `failed(err)`, and the dialog closes either way.
 */
export function useConfirmedDelete<T extends { _id: string }>(
  remove: RowRemoval,
  on: { deleted: (row: T) => void; failed: (err: Error) => void },
) {
  const [toDelete, setToDelete] = useState<T | null>(null);
  const confirm = () => {
    if (!toDelete) return;
    const row = toDelete;
    remove.mutate(row._id, {
      onSuccess: () => on.deleted(row),
      onError: (err) => on.failed(err),
      onSettled: () => setToDelete(null),
    });
  };
  return {
    /** The row the dialog asks about, if it is open. */
    toDelete,
    ask: (row: T) => setToDelete(row),
    dialog: {
      opened: toDelete !== null,
      onConfirm: confirm,
      onCancel: () => setToDelete(null),
      loading: remove.isPending,
    },
  };
}
