import { PasswordInput, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { resetPasswordInput, type ProfileJson } from '#shared/schemas/user.ts';
import { applyServerError, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { useResetPassword } from '../api.ts';
import { reasonOf, doneThen, UserFormModal } from './user-modal.tsx';

/** Set a new password for a user (spec §2 Manage Users). */
export function ResetPasswordModal({ user, onClose }: { user: ProfileJson; onClose: () => void }) {
  const { t } = useTranslation('people');
  const reset = useResetPassword();
  const form = useForm({
    mode: 'controlled',
    initialValues: { newPassword: '' },
    validate: zodValidate(resetPasswordInput),
  });
  const { field } = translatedErrors(form, 'people');
  const submit = form.onSubmit((values) =>
    reset.mutate(
      { userId: user._id, input: values },
      {
        onSuccess: doneThen(t('manage.passwordReset'), onClose),
        onError: (err) => {
          if (!applyServerError(form, err)) notifications.show({ color: 'red', message: reasonOf(err, t) });
        },
      },
    ),
  );
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
