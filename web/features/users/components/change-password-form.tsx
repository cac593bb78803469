import { Button, PasswordInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';

import { changePasswordInput } from '#shared/schemas/user.ts';

import { ApiError } from '#web/lib/api-client.ts';
import { getUser, saveLogin } from '#web/lib/auth-storage.ts';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useChangePassword } from '../api.ts';

const checkPassword = zodValidate(changePasswordInput);

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * Change Password: the current password is required. Every older session ends (decision 003); the answer's
 * new token keeps this browser signed in.
 */
export function ChangePasswordForm({ userId }: { userId: string }) {
  const { t } = useTranslation('people');
  const change = useChangePassword(userId);
  const form = useForm<PasswordValues>({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: (values) => {
      const errors = checkPassword(values);
      if (!errors.newPassword && values.confirmPassword !== values.newPassword)
        errors.confirmPassword = t('password.mismatch');
      return errors;
    },
  });
  const { field } = translatedErrors(form);

  const submit = ({ currentPassword, newPassword }: PasswordValues) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: ({ token }) => {
          const user = getUser();
          if (user) saveLogin({ token, user });
          form.reset();
          notifications.show({ color: 'green', message: t('password.changed') });
        },
        onError: (err) => {
          if (applyServerError(form, err)) return;
          // Too many wrong current passwords: the server says when to try again (decision 014), in the reader's words.
          const tooMany = err instanceof ApiError && err.status === 429;
          notifications.show({ color: 'red', message: tooMany ? serverMessage(err) : t('password.failed') });
        },
      },
    );

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label={t('password.title')}>
      <Stack gap="sm">
        <Text size="sm" c="gray.8">
          {t('password.intro')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }} style={{ alignItems: 'start' }}>
          <PasswordInput
            label={t('password.current')}
            autoComplete="current-password"
            required
            {...field('currentPassword')}
          />
          <PasswordInput
            label={t('password.new')}
            autoComplete="new-password"
            required
            description={t('password.hint')}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            {...field('newPassword')}
          />
          <PasswordInput
            label={t('password.confirm')}
            autoComplete="new-password"
            required
            {...field('confirmPassword')}
          />
        </SimpleGrid>
        <div>
          <Button type="submit" variant="outline" loading={change.isPending}>
            {t('password.submit')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
