import { Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { stepUpInput } from '#shared/schemas/auth.ts';

import { setStepUpHandler } from '#web/lib/api-client.ts';
import { clearLogin } from '#web/lib/auth-storage.ts';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { paths } from '#web/lib/paths.ts';

import { confirmIdentity, logout } from '../api.ts';
import { PasskeySignInButton } from './passkey-sign-in-button.tsx';

interface Asked {
  methods: string[];
  settle: (given: boolean) => void;
}

const check = zodValidate(stepUpInput);

/**
 * "Confirm it is you" (decision 066): any API call refused with 401 `auth.step_up_required` (a Secret
 * letter opened, downloaded or marked more than STEP_UP_MINUTES after the sign-in or the last check) opens this one
 * dialog, which asks for the password or a code by the methods of the answer. Once the check is given, every call
 * that was waiting for it is sent again (web/lib/api-client.ts) and the screen carries on; Cancel lets the refusal
 * through. Calls refused while the dialog is open wait for the same answer.
 */
export function StepUpDialog() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [asked, setAsked] = useState<Asked | null>(null);
  const waiting = useRef<Promise<boolean> | null>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState('');
  const form = useForm({ mode: 'controlled', initialValues: { password: '', code: '' } });
  const { field } = translatedErrors(form);

  useEffect(() => {
    setStepUpHandler((methods) => {
      waiting.current ??= new Promise<boolean>((resolve) =>
        setAsked({
          methods,
          settle: (given) => {
            waiting.current = null;
            setAsked(null);
            resolve(given);
          },
        }),
      );
      return waiting.current;
    });
    return () => setStepUpHandler(null);
  }, []);

  const methods = asked?.methods ?? [];
  const byPassword = methods.includes('password');
  const byCode = methods.includes('totp') || methods.includes('recovery');
  // A passkey answers in the browser's own prompt (decision 065): the signed-in check marks this session fresh.
  const byPasskey = methods.includes('passkey');
  const answerable = byPassword || byCode || byPasskey;

  const close = (given: boolean) => {
    form.reset();
    setFailure('');
    asked?.settle(given);
  };

  const submit = async (values: { password: string; code: string }) => {
    const input = byPassword ? { password: values.password } : { code: values.code };
    const errors = check(input);
    if (Object.keys(errors).length) {
      form.setErrors(byPassword ? { password: errors.password } : { code: errors.code ?? errors.password });
      return;
    }
    setPending(true);
    setFailure('');
    try {
      await confirmIdentity(input);
      close(true);
    } catch (err) {
      if (!applyServerError(form, err, { fields: [byPassword ? 'password' : 'code'] })) {
        setFailure(serverMessage(err, t('stepUp.failed')));
      }
    } finally {
      setPending(false);
    }
  };

  const signInAgain = () => {
    close(false);
    void logout();
    clearLogin();
    queryClient.clear();
    const { pathname, search, hash } = window.location;
    void navigate(paths.login, { replace: true, state: { from: `${pathname}${search}${hash}` } });
  };

  return (
    <Modal opened={asked !== null} onClose={() => close(false)} title={t('stepUp.title')} centered>
      <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate aria-label={t('stepUp.title')}>
        <Stack gap="sm">
          <Text size="sm">{t('stepUp.intro')}</Text>
          {byPasskey && <PasskeySignInButton onSignedIn={() => close(true)} />}
          {byPassword && (
            <PasswordInput
              label={t('stepUp.password')}
              autoComplete="current-password"
              required
              data-autofocus
              {...field('password')}
            />
          )}
          {!byPassword && byCode && (
            <TextInput
              label={t('stepUp.code')}
              description={t('stepUp.codeHint')}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              autoComplete="one-time-code"
              required
              data-autofocus
              {...field('code')}
            />
          )}
          {!answerable && <Text size="sm">{t('stepUp.signInAgainIntro')}</Text>}
          {failure && (
            <Text size="sm" c="red.9" role="alert">
              {failure}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => close(false)}>
              {t('stepUp.cancel')}
            </Button>
            {(byPassword || byCode) && (
              <Button type="submit" loading={pending}>
                {t('stepUp.submit')}
              </Button>
            )}
            {!answerable && <Button onClick={signInAgain}>{t('stepUp.signInAgain')}</Button>}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
