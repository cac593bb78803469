import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { passwordResetInput } from '#shared/schemas/auth.ts';

import { translateCoded } from '#web/i18n/index.ts';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { paths } from '#web/lib/paths.ts';

import { useResetPassword } from '../api.ts';

interface ResetValues {
  token: string;
  password: string;
  confirmPassword: string;
}

const checkReset = zodValidate(passwordResetInput);

/** A sentence in a coloured box, dark text on the light background (WCAG 1.4.3). */
function Note({ color, role, children }: { color: 'green' | 'red'; role: 'status' | 'alert'; children: string }) {
  return (
    <Alert color={color} variant="light" role={role}>
      <Text size="sm" c="gray.9">
        {children}
      </Text>
    </Alert>
  );
}

/**
 * The mailed link's page (decision 077): a new password, twice, for the link's `token`. Afterwards every
 * session of the account has ended and the person signs in with the new password. A link that was used, has expired
 * or was cut short says so, with the way to ask for a new one.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation('auth');
  const reset = useResetPassword();
  const form = useForm<ResetValues>({
    mode: 'controlled',
    initialValues: { token, password: '', confirmPassword: '' },
    validate: (values) => {
      const errors = checkReset(values);
      if (!errors.password && values.confirmPassword !== values.password) errors.confirmPassword = t('reset.mismatch');
      return errors;
    },
  });
  const { field } = translatedErrors(form);
  const askAgain = (
    <Anchor component={Link} to={paths.forgotPassword} fw={600}>
      {t('reset.askAgain')}
    </Anchor>
  );

  if (!token.trim()) {
    return (
      <Stack gap="md">
        <Note color="red" role="alert">
          {translateCoded({ code: 'auth.reset_token_required' })}
        </Note>
        {askAgain}
      </Stack>
    );
  }
  if (reset.isSuccess) {
    return (
      <Stack gap="md">
        <Note color="green" role="status">
          {t('reset.done')}
        </Note>
        <Button component={Link} to={paths.login}>
          {t('reset.login')}
        </Button>
      </Stack>
    );
  }
  const refusal = reset.isError && !form.errors.password ? serverMessage(reset.error, t('reset.failed')) : '';
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(({ password }) =>
        reset.mutate(
          { token, password },
          { onError: (err) => void applyServerError(form, err, { fields: ['password'] }) },
        ),
      )}
    >
      <Stack gap="md">
        <Text size="sm">{t('reset.intro')}</Text>
        {refusal && (
          <Stack gap="xs">
            <Note color="red" role="alert">
              {refusal}
            </Note>
            {askAgain}
          </Stack>
        )}
        <PasswordInput
          label={t('reset.new')}
          autoComplete="new-password"
          required
          description={t('reset.hint')}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          {...field('password')}
        />
        <PasswordInput label={t('reset.confirm')} autoComplete="new-password" required {...field('confirmPassword')} />
        <Button type="submit" loading={reset.isPending} fullWidth>
          {t('reset.submit')}
        </Button>
      </Stack>
    </form>
  );
}
