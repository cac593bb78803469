import { PasswordInput, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { type ProfileJson, resetPasswordInput } from '#shared/schemas/user.ts';

import { useResetPassword } from '../api.ts';
import { UserFormModal, useUserDialogForm } from './user-modal.tsx';

/** Set a new password for a user (spec §2 Manage Users). */
export function ResetPasswordModal({ user, onClose }: { user: ProfileJson; onClose: () => void }) {
  const { t } = useTranslation('people');
  const reset = useResetPassword();
  const { field, submit } = useUserDialogForm({
    initialValues: { newPassword: '' },
    schema: resetPasswordInput,
    send: (input, callbacks) => reset.mutate({ userId: user._id, input }, callbacks),
    doneText: t('manage.passwordReset'),
    onClose,
  });
  return (
    <UserFormModal
      title={t('manage.resetTitle', { name: user.personalDetails.name })}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('manage.resetPassword')}
      pending={reset.isPending}
    >
      <Text size="sm">{t('manage.resetIntro')}</Text>
      <PasswordInput
        label={t('manage.newPassword')}
        description={t('password.hint')}
        autoComplete="new-password"
        required
        data-autofocus
        {...field('newPassword')}
      />
    </UserFormModal>
  );
}
