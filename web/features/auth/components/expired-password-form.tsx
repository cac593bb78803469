import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';

import type { LoginJson, PasswordChangeStepJson } from '#shared/schemas/auth.ts';
import { expiredPasswordInput } from '#shared/schemas/user.ts';

import { translateCoded } from '#web/i18n/index.ts';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useExpiredPassword } from '../api.ts';

interface ExpiredValues {
  ticket: string;
  newPassword: string;
  confirmPassword: string;
}

const checkExpired = zodValidate(expiredPasswordInput);

/**
 * The sign-in's step for a portal password older than PASSWORD_MAX_AGE_DAYS (decision 117): a new password, twice,
 * with the step's ticket; the sign-in then goes on (`onDone`: a second factor, or the session). A password used
 * recently (PASSWORD_HISTORY) is refused under the field.
 */
export function ExpiredPasswordForm({
  step,
  onDone,
}: {
  step: PasswordChangeStepJson;
  onDone: (login: LoginJson) => void;
}) {
  const { t } = useTranslation('auth');
  const change = useExpiredPassword();
  const form = useForm<ExpiredValues>({
    mode: 'controlled',
    initialValues: { ticket: step.ticket, newPassword: '', confirmPassword: '' },
    validate: (values) => {
      const errors = checkExpired(values);
      if (!errors.newPassword && values.confirmPassword !== values.newPassword) {
        errors.confirmPassword = t('reset.mismatch');
      }
      return errors;
    },
  });
  const { field } = translatedErrors(form);
  const refusal = change.isError && !form.errors.newPassword ? serverMessage(change.error, t('reset.failed')) : '';
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(({ newPassword }) =>
        change.mutate(
          { ticket: step.ticket, newPassword },
          { onSuccess: onDone, onError: (err) => void applyServerError(form, err, { fields: ['newPassword'] }) },
        ),
      )}
    >
      <Stack gap="md">
        <Alert color="yellow" variant="light" role="status">
          <Text size="sm" c="gray.9">
            {translateCoded({ code: step.code, params: { days: step.days } })}
          </Text>
        </Alert>
        {refusal && (
          <Alert color="red" variant="light" role="alert">
            <Text size="sm" c="gray.9">
              {refusal}
            </Text>
          </Alert>
        )}
        <PasswordInput
          label={t('reset.new')}
          autoComplete="new-password"
          required
          description={t('reset.hint')}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          {...field('newPassword')}
        />
        <PasswordInput label={t('reset.confirm')} autoComplete="new-password" required {...field('confirmPassword')} />
        <Button type="submit" loading={change.isPending} fullWidth>
          {t('reset.submit')}
        </Button>
      </Stack>
    </form>
  );
}
