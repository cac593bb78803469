import { Alert, Button, Code, CopyButton, Group, Image, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import {
  secondFactorVerifyInput,
  type SessionJson,
  totpConfirmInput,
  type TotpEnrolJson,
} from '#shared/schemas/auth.ts';

import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useConfirmTotp, useEnrolTotp, useVerifySecondFactor } from '../api.ts';

/**
 * The second factor's screens (decision 064), used at sign-in (with the ticket of the password step) and by a
 * signed-in session the API refused until it passes one (no ticket: the stored login's token is sent).
 */

/** A refusal no field shows (an expired sign-in step, too many attempts): said above the button. */
function FormAlert({ message }: { message: string }) {
  return (
    <Alert color="red" variant="light" role="alert">
      <Text size="sm" c="gray.9">
        {message}
      </Text>
    </Alert>
  );
}

/**
 * A code field and its button: a TOTP code from the app or a recovery code. Checked by the server's schema first
 * (an empty code is said at once); a wrong code is said under the field, any other refusal above the button.
 */
export function SecondFactorPrompt({ ticket, onDone }: { ticket?: string; onDone: (login: SessionJson) => void }) {
  const { t } = useTranslation('auth');
  const verify = useVerifySecondFactor();
  const form = useForm({
    mode: 'controlled',
    initialValues: { code: '' },
    validate: zodValidate(secondFactorVerifyInput),
  });
  const { error } = translatedErrors(form);
  const [refusal, setRefusal] = useState<unknown>(null);
  // The step replaces the password form under the person's focus: put it on the code field, where they type next
  // (data-autofocus does this inside a modal only).
  const codeRef = useRef<HTMLInputElement>(null);
  useEffect(() => codeRef.current?.focus(), []);
  const submit = (values: { code: string }) => {
    setRefusal(null);
    verify.mutate(
      { ...(ticket ? { ticket } : {}), code: values.code.trim() },
      {
        onSuccess: (login) => onDone(login),
        onError: (err) => {
          if (!applyServerError(form, err, { fields: ['code'] })) setRefusal(err);
        },
      },
    );
  };
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <Text size="sm">{t('secondFactor.promptIntro')}</Text>
        <TextInput
          ref={codeRef}
          label={t('secondFactor.code')}
          description={t('secondFactor.codeHint')}
          autoComplete="one-time-code"
          inputMode="text"
          autoCapitalize="none"
          spellCheck={false}
          required
          data-autofocus
          {...form.getInputProps('code')}
          error={error('code')}
        />
        {refusal !== null && <FormAlert message={serverMessage(refusal, t('secondFactor.failed'))} />}
        <Button type="submit" loading={verify.isPending} fullWidth>
          {t('secondFactor.verify')}
        </Button>
      </Stack>
    </form>
  );
}

/** The 10 recovery codes, shown once: copy, download, then go on. */
export function RecoveryCodesShown({ codes, onContinue }: { codes: string[]; onContinue: () => void }) {
  const { t } = useTranslation('auth');
  const text = codes.join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'lab-portal-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack gap="md">
      {/* NOTE: the light yellow alert's own title colour (yellow 9 on yellow 1) is 2.7:1; gray 9 passes AA. */}
      <Alert
        color="yellow"
        variant="light"
        title={t('secondFactor.codesTitle')}
        styles={{ title: { color: 'var(--mantine-color-gray-9)' } }}
      >
        <Text size="sm" c="gray.9">
          {t('secondFactor.codesIntro')}
        </Text>
      </Alert>
      <SimpleGrid cols={2} spacing="xs" aria-label={t('secondFactor.codesTitle')} role="list">
        {codes.map((c) => (
          <Code key={c} role="listitem" fz="md" ta="center">
            {c}
          </Code>
        ))}
      </SimpleGrid>
      <Group grow>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="outline" onClick={copy}>
              {copied ? t('secondFactor.copied') : t('secondFactor.copy')}
            </Button>
          )}
        </CopyButton>
        <Button variant="outline" onClick={download}>
          {t('secondFactor.download')}
        </Button>
      </Group>
      <Button onClick={onContinue} fullWidth>
        {t('secondFactor.continue')}
      </Button>
    </Stack>
  );
}

/**
 * Setting up an authenticator app: the QR code and the secret to type, a code from the app to confirm; the first
 * factor's recovery codes are then shown once before `onDone`. `optional`: set up of the person's own accord (My
 * Account), not because their role requires it.
 */
export function TotpEnrolment({
  ticket,
  optional = false,
  onDone,
}: {
  ticket?: string;
  optional?: boolean;
  onDone: (login: SessionJson | null) => void;
}) {
  const { t } = useTranslation('auth');
  const enrol = useEnrolTotp();
  const confirm = useConfirmTotp();
  const [setup, setSetup] = useState<TotpEnrolJson | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { code: '', label: '' },
    validate: zodValidate(totpConfirmInput),
  });
  const { error } = translatedErrors(form);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [shown, setShown] = useState<{ codes: string[]; login: SessionJson | null } | null>(null);
  // The start button goes once the QR code is in: the focus moves to the instructions that replace it.
  const scanRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (setup) scanRef.current?.focus();
  }, [setup]);

  if (shown) return <RecoveryCodesShown codes={shown.codes} onContinue={() => onDone(shown.login)} />;
  if (!setup) {
    return (
      <Stack gap="md">
        <Text size="sm">{t(optional ? 'secondFactor.enrolIntroOptional' : 'secondFactor.enrolIntro')}</Text>
        {enrol.error && <FormAlert message={serverMessage(enrol.error, t('secondFactor.failed'))} />}
        <Button
          onClick={() => enrol.mutate(ticket ? { ticket } : {}, { onSuccess: setSetup })}
          loading={enrol.isPending}
          fullWidth
        >
          {t('secondFactor.start')}
        </Button>
      </Stack>
    );
  }
  const submit = (values: { code: string; label: string }) => {
    setRefusal(null);
    const label = values.label.trim();
    confirm.mutate(
      { ...(ticket ? { ticket } : {}), code: values.code.trim(), ...(label ? { label } : {}) },
      {
        onSuccess: (answer) => {
          const login = answer.token && answer.user ? { token: answer.token, user: answer.user } : null;
          if (answer.recoveryCodes?.length) setShown({ codes: answer.recoveryCodes, login });
          else onDone(login);
        },
        onError: (err) => {
          if (!applyServerError(form, err, { fields: ['code', 'label'] })) setRefusal(err);
        },
      },
    );
  };
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <Text size="sm" ref={scanRef} tabIndex={-1} style={{ outline: 'none' }}>
          {t('secondFactor.scan')}
        </Text>
        <Image src={setup.qrDataUrl} alt={t('secondFactor.qrAlt')} w={200} h={200} mx="auto" />
        <Text size="sm">{t('secondFactor.typeSecret')}</Text>
        {/* In groups of four, as authenticator apps accept it, wrapping at 390 px (one <pre> line was cut off). */}
        <Code block fz="md" ta="center" style={{ whiteSpace: 'pre-wrap' }} data-testid="totp-secret">
          {setup.secret.replace(/(.{4})(?=.)/g, '$1 ')}
        </Code>
        <TextInput
          label={t('secondFactor.label')}
          description={t('secondFactor.labelHint')}
          maxLength={60}
          {...form.getInputProps('label')}
          error={error('label')}
        />
        <TextInput
          label={t('secondFactor.code')}
          description={t('secondFactor.enrolCodeHint')}
          autoComplete="one-time-code"
          inputMode="numeric"
          required
          {...form.getInputProps('code')}
          error={error('code')}
        />
        {refusal !== null && <FormAlert message={serverMessage(refusal, t('secondFactor.failed'))} />}
        <Button type="submit" loading={confirm.isPending} fullWidth>
          {t('secondFactor.confirm')}
        </Button>
      </Stack>
    </form>
  );
}
