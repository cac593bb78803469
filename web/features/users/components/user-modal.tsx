// The frame and helpers of Manage Users' dialogs (spec §2 Manage Users): one file per dialog beside the table.
import type { FormEvent, ReactNode } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { serverMessage } from '#web/lib/form-errors.ts';

type Translate = ReturnType<typeof useTranslation>['t'];

/** The server's sentence in the current language, else the screen's own words. */
export const reasonOf = (err: unknown, t: Translate) => serverMessage(err, 'people', t('manage.failed'));

/** onSuccess of a dialog's save: say so, then close the dialog. */
export const doneThen = (message: string, onClose: () => void) => () => {
  notifications.show({ color: 'green', message });
  onClose();
};

/** A dialog about one user, closed by Esc, the × ('Close') or its own buttons. */
export function UserModal({
  title,
  onClose,
  opened = true,
  size,
  children,
}: {
  title: string;
  onClose: () => void;
  opened?: boolean;
  size?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('people');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('approval.close') }}
      title={title}
      size={size}
      centered
    >
      {children}
    </Modal>
  );
}

/** A dialog holding a form: its fields, then Cancel and the submit button. */
export function UserFormModal({
  title,
  onClose,
  onSubmit,
  submitLabel,
  submitColor,
  pending,
  focusCancel,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  submitLabel: string;
  submitColor?: string;
  pending: boolean;
  /** Start on Cancel (a dialog that takes something away). */
  focusCancel?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('people');
  return (
    <UserModal title={title} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus={focusCancel || undefined}>
              {t('manage.cancel')}
            </Button>
            <Button type="submit" color={submitColor} loading={pending}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </UserModal>
  );
}
