import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { type ForgotPasswordInput, forgotPasswordInput } from '#shared/schemas/auth.ts';

import { translateCoded } from '#web/i18n/index.ts';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { paths } from '#web/lib/paths.ts';

import { useAuthOptions, useForgotPassword } from '../api.ts';

/** A sentence in a coloured box, dark text on the light background (WCAG 1.4.3). */
function Note({
  color,
  role,
  children,
}: {
  color: 'green' | 'red' | 'yellow';
  role: 'status' | 'alert';
  children: string;
}) {
  return (
    <Alert color={color} variant="light" role={role}>
      <Text size="sm" c="gray.9">
        {children}
      </Text>
    </Alert>
  );
}

/**
 * "Forgot password?" (decision 077): the email of the account. Every email gets the same confirmation (the
 * screen never says whether it is an account's); a directory or single sign-on account is told where its password
 * lives. Where the portal sends no mail, the page says so and offers no form.
 */
export function ForgotPasswordForm() {
  const { t } = useTranslation('auth');
  const options = useAuthOptions();
  const ask = useForgotPassword();
  const form = useForm<ForgotPasswordInput>({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: zodValidate(forgotPasswordInput),
  });
  const { field } = translatedErrors(form);

  if (options.data && !options.data.email) {
    return (
      <Note color="yellow" role="status">
        {translateCoded({ code: 'auth.reset_off' })}
      </Note>
    );
  }
  if (ask.isSuccess) {
    return (
      <Stack gap="md">
        <Note color="green" role="status">
          {t('forgot.sent')}
        </Note>
        <Anchor component={Link} to={paths.login} fw={600}>
          {t('forgot.backToLogin')}
        </Anchor>
      </Stack>
    );
  }
  const refusal = ask.isError && !(ask.error && form.errors.email) ? serverMessage(ask.error, t('forgot.failed')) : '';
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        ask.mutate(values, { onError: (err) => void applyServerError(form, err, { fields: ['email'] }) }),
      )}
    >
      <Stack gap="md">
        <Text size="sm">{t('forgot.intro')}</Text>
        {refusal && (
          <Note color="red" role="alert">
            {refusal}
          </Note>
        )}
        <TextInput label={t('fields.email')} type="email" autoComplete="username" required {...field('email')} />
        <Button type="submit" loading={ask.isPending} fullWidth>
          {t('forgot.submit')}
        </Button>
        <Anchor component={Link} to={paths.login} size="sm" ta="center">
          {t('forgot.backToLogin')}
        </Anchor>
      </Stack>
    </form>
  );
}
