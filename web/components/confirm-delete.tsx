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

/**
 * A delete mutation (what TanStack Query's useMutation returns), called with the row's id or, through `variables`,
 * with whatever its API needs (e.g. the owner's id and the row's).
 */
export interface RowRemoval<V = string> {
  mutate: (
    variables: V,
    callbacks: { onSuccess: () => void; onError: (err: Error) => void; onSettled: () => void },
  ) => void;
  isPending: boolean;
}

/**
 * "Ask, then delete" (spec §5 Confirmations), the one confirm → delete → message block of every screen: `ask(row)`
 * opens the dialog, whose props are `dialog`; Delete runs `remove` with the row's id (or `on.variables(row)`), then
 * `deleted(row)` or `failed(err)` (each screen shows its own message), and the dialog closes either way.
 */
export function useConfirmedDelete<T extends object, V = string>(
  remove: RowRemoval<V>,
  on: { deleted: (row: T) => void; failed: (err: Error) => void; variables?: (row: T) => V },
) {
  const [toDelete, setToDelete] = useState<T | null>(null);
  const confirm = () => {
    if (!toDelete) return;
    const row = toDelete;
    const variables = on.variables ? on.variables(row) : ((row as { _id?: unknown })._id as V);
    remove.mutate(variables, {
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
