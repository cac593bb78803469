import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { isSignInStep, type LoginInput, loginInput, type LoginJson } from '#shared/schemas/auth.ts';

import { ApiError } from '#web/lib/api-client.ts';
import { serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { paths } from '#web/lib/paths.ts';

import { useAuthOptions, useLogin } from '../api.ts';

/** One id for the failed-login toast, so a later attempt replaces or hides it. */
const LOGIN_ERROR_TOAST = 'login-error';

export interface LoginFormProps {
  onSignedIn: (login: LoginJson) => void;
  /** A 403 with status 'pending': the account waits for approval (spec §4). */
  onPending: () => void;
}

/** Email and password, checked by the same schema as the server (spec §5 Login); messages of spec §8. */
export function LoginForm({ onSignedIn, onPending }: LoginFormProps) {
  const { t } = useTranslation('auth');
  const login = useLogin();
  // "Forgot password?" only where the portal sends mail (SMTP_URL, decision 077).
  const mailsLinks = useAuthOptions().data?.email === true;
  const form = useForm<LoginInput>({
    mode: 'controlled',
    initialValues: { email: '', password: '' },
    validate: zodValidate(loginInput),
  });
  const { error } = translatedErrors(form);

  const onSubmit = (values: LoginInput) => {
    // A failed attempt's message must not linger on the next screen once the right password is given.
    notifications.hide(LOGIN_ERROR_TOAST);
    login.mutate(values, {
      onSuccess: (answer) => {
        if (!isSignInStep(answer)) notifications.show({ color: 'green', message: t('login.success') });
        onSignedIn(answer);
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status === 403 && err.body?.status === 'pending') return onPending();
        // Rejected and deactivated accounts, wrong credentials: the server's sentence, else 'Login failed.'
        notifications.show({
          id: LOGIN_ERROR_TOAST,
          color: 'red',
          message: serverMessage(err, t('login.failed')),
        });
      },
    });
  };

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('fields.email')}
          type="email"
          autoComplete="username"
          required
          {...form.getInputProps('email')}
          error={error('email')}
        />
        <PasswordInput
          label={t('fields.password')}
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
          error={error('password')}
        />
        {mailsLinks && (
          <Anchor component={Link} to={paths.forgotPassword} size="sm" ta="right" mt={-8}>
            {t('forgot.link')}
          </Anchor>
        )}
        <Button type="submit" loading={login.isPending} fullWidth>
          {t('login.submit')}
        </Button>
      </Stack>
    </form>
  );
}

/** "Don't have an account? Register", at the foot of the login page, after every way of signing in. */
export function RegisterPrompt() {
  const { t } = useTranslation('auth');
  return (
    <Text size="sm" ta="center" mt="md">
      {t('login.noAccount')}{' '}
      <Anchor component={Link} to={paths.register} fw={600}>
        {t('login.registerLink')}
      </Anchor>
    </Text>
  );
}
