// The frame and helpers of Manage Users' dialogs (spec §2 Manage Users): one file per dialog beside the table.
import { Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { FormActions } from '#web/components/form-actions.tsx';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

type Translate = ReturnType<typeof useTranslation>['t'];

/** The server's sentence in the current language, else the screen's own words. */
export const reasonOf = (err: unknown, t: Translate) => serverMessage(err, t('manage.failed'));

/** What a dialog's mutation is told when its call ends. */
interface SendCallbacks {
  onSuccess: () => void;
  onError: (err: unknown) => void;
}

/**
 * The form of a dialog about one user: its values checked by the shared `schema` (through `toInput`), handed to
 * `send`; on success `doneText` is toasted and the dialog closes; a refusal is shown on the input it names, else
 * toasted in the server's words (or `failedText`, 'Action failed…' by default).
 */
export function useUserDialogForm<V extends Record<string, unknown>>({
  initialValues,
  schema,
  toInput,
  send,
  doneText,
  failedText,
  onClose,
}: {
  initialValues: V;
  schema: Parameters<typeof zodValidate>[0];
  toInput?: (values: V) => unknown;
  send: (values: V, callbacks: SendCallbacks) => void;
  doneText: string;
  failedText?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('people');
  const form = useForm<V>({ mode: 'controlled', initialValues, validate: zodValidate<V>(schema, { toInput }) });
  const { field } = translatedErrors(form);
  const submit = form.onSubmit((values) =>
    send(values, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: doneText });
        onClose();
      },
      onError: (err) => {
        if (applyServerError(form, err)) return;
        notifications.show({ color: 'red', message: serverMessage(err, failedText ?? t('manage.failed')) });
      },
    }),
  );
  return { form, field, submit };
}

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
          <FormActions
            onCancel={onClose}
            cancelLabel={t('manage.cancel')}
            submitLabel={submitLabel}
            pending={pending}
            submitColor={submitColor}
            focusCancel={focusCancel}
          />
        </Stack>
      </form>
    </UserModal>
  );
}
