import { Alert, Button, Divider, Group, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { isMessageCode } from '#shared/messages/index.ts';
import { isSignInStep, type LoginJson } from '#shared/schemas/auth.ts';

import { translateCoded } from '#web/i18n/index.ts';
import { serverMessage } from '#web/lib/form-errors.ts';

import { useAuthOptions, useSsoExchange } from '../api.ts';

/** Where the single sign-on button sends the browser: the server sends it on to the provider. */
export const SSO_START = '/api/auth/sso/start';

/** The refusal `/login?sso_error=<code>` names, in the reader's language; only the sign-in's own codes are shown. */
function refusalText(code: string | null): string | null {
  if (!code) return null;
  return translateCoded({ code: code.startsWith('auth.') && isMessageCode(code) ? code : 'auth.sso_failed' });
}

/**
 * Single sign-on on the login page (decision 063): the provider's button when it is set up (its words in the page's
 * language, from GET /api/auth/options), the end of the journey at `/login?sso=<one-time code>` (exchanged for the
 * login, then on as after a password), and the coded refusals of `/login?sso_error=<code>`. `children` (the password
 * form) goes between them: the refusal or the progress first, where the person coming back from the provider looks,
 * and the button last, after "or".
 */
export function SsoSignIn({ onSignedIn, children }: { onSignedIn: (login: LoginJson) => void; children?: ReactNode }) {
  // 'messages': a refusal in the address is worded on the first paint, not after the refusals' texts arrive (087).
  const { t, i18n } = useTranslation(['auth', 'messages']);
  const options = useAuthOptions();
  const exchange = useSsoExchange();
  const [params, setParams] = useSearchParams();
  const code = params.get('sso');
  const [failure, setFailure] = useState<string | null>(null);
  const refusal = refusalText(params.get('sso_error'));
  // A code works once: exchanged once, even when the effect runs twice (StrictMode) or the page re-renders.
  const exchanged = useRef<string | null>(null);

  useEffect(() => {
    if (!code || exchanged.current === code) return;
    exchanged.current = code;
    exchange.mutate(code, {
      onSuccess: (login) => {
        // The second-factor step (decision 064) is not signed in yet: the login page asks for the code next.
        if (!isSignInStep(login)) notifications.show({ color: 'green', message: t('login.success') });
        onSignedIn(login);
      },
      onError: (err) => {
        setFailure(serverMessage(err, t('login.ssoFailed')));
        setParams({}, { replace: true }); // the spent code leaves the address
      },
    });
  }, [code, exchange, onSignedIn, setParams, t]);

  const sso = options.data?.sso;
  const message = failure ?? refusal;
  return (
    <Stack gap="md">
      {message && (
        <Alert color="red" variant="light" role="alert">
          <Text c="gray.9">{message}</Text>
        </Alert>
      )}
      {code && exchange.isPending && (
        <Group gap="xs" justify="center" role="status">
          <Loader size="sm" />
          <Text>{t('login.ssoFinishing')}</Text>
        </Group>
      )}
      {children}
      {sso && (
        <>
          <Divider label={t('login.or')} labelPosition="center" />
          <Button component="a" href={SSO_START} variant="outline" fullWidth>
            {i18n.language.startsWith('hi') ? sso.label.hi : sso.label.en}
          </Button>
        </>
      )}
    </Stack>
  );
}
