import { Alert, Button, Code, CopyButton, Group, Image, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { SessionJson, TotpEnrolJson } from '#shared/schemas/auth.ts';

import { serverMessage } from '#web/lib/form-errors.ts';

import { useConfirmTotp, useEnrolTotp, useVerifySecondFactor } from '../api.ts';

/**
 * The second factor's screens (decision 064), used at sign-in (with the ticket of the password step) and by a
 * signed-in session the API refused until it passes one (no ticket: the stored login's token is sent).
 */

/** A code field and its button: a TOTP code from the app or a recovery code. */
export function SecondFactorPrompt({ ticket, onDone }: { ticket?: string; onDone: (login: SessionJson) => void }) {
  const { t } = useTranslation('auth');
  const verify = useVerifySecondFactor();
  const [code, setCode] = useState('');
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    verify.mutate({ ...(ticket ? { ticket } : {}), code }, { onSuccess: onDone });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">{t('secondFactor.promptIntro')}</Text>
        <TextInput
          label={t('secondFactor.code')}
          description={t('secondFactor.codeHint')}
          autoComplete="one-time-code"
          inputMode="text"
          required
          data-autofocus
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={verify.error ? serverMessage(verify.error, t('secondFactor.failed')) : undefined}
        />
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
      <Alert
        color="yellow"
        variant="light"
        title={
          // NOTE: the yellow title Mantine gives is 2.7:1 on its background (axe color-contrast).
          <Text component="span" fw={700} c="gray.9">
            {t('secondFactor.codesTitle')}
          </Text>
        }
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
 * factor's recovery codes are then shown once before `onDone`.
 */
export function TotpEnrolment({ ticket, onDone }: { ticket?: string; onDone: (login: SessionJson | null) => void }) {
  const { t } = useTranslation('auth');
  const enrol = useEnrolTotp();
  const confirm = useConfirmTotp();
  const [setup, setSetup] = useState<TotpEnrolJson | null>(null);
  const [code, setCode] = useState('');
  const [label, setLabel] = useState('');
  const [shown, setShown] = useState<{ codes: string[]; login: SessionJson | null } | null>(null);

  if (shown) return <RecoveryCodesShown codes={shown.codes} onContinue={() => onDone(shown.login)} />;
  if (!setup) {
    return (
      <Stack gap="md">
        <Text size="sm">{t('secondFactor.enrolIntro')}</Text>
        {enrol.error && (
          <Alert color="red" variant="light">
            <Text size="sm" c="gray.9">
              {serverMessage(enrol.error, t('secondFactor.failed'))}
            </Text>
          </Alert>
        )}
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
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    confirm.mutate(
      { ...(ticket ? { ticket } : {}), code, ...(label.trim() ? { label } : {}) },
      {
        onSuccess: (answer) => {
          const login = answer.token && answer.user ? { token: answer.token, user: answer.user } : null;
          if (answer.recoveryCodes?.length) setShown({ codes: answer.recoveryCodes, login });
          else onDone(login);
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">{t('secondFactor.scan')}</Text>
        <Image src={setup.qrDataUrl} alt={t('secondFactor.qrAlt')} w={200} h={200} mx="auto" />
        <Text size="sm">{t('secondFactor.typeSecret')}</Text>
        <Code block fz="md" style={{ wordBreak: 'break-all' }} data-testid="totp-secret">
          {setup.secret}
        </Code>
        <TextInput
          label={t('secondFactor.label')}
          description={t('secondFactor.labelHint')}
          value={label}
          maxLength={60}
          onChange={(e) => setLabel(e.currentTarget.value)}
        />
        <TextInput
          label={t('secondFactor.code')}
          autoComplete="one-time-code"
          inputMode="numeric"
          required
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={confirm.error ? serverMessage(confirm.error, t('secondFactor.failed')) : undefined}
        />
        <Button type="submit" loading={confirm.isPending} fullWidth>
          {t('secondFactor.confirm')}
        </Button>
      </Stack>
    </form>
  );
}
