import { Alert, Group, Loader, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';

import type { MailChoice, MailPreferenceKind } from '#shared/schemas/mail-preferences.ts';

import { serverMessage } from '#web/lib/form-errors.ts';

import { useMailPreferences, useSetMailPreference } from '../api.ts';

const CHOICES: MailChoice[] = ['now', 'digest', 'off'];

/**
 * My Account → Email (decision 081): per kind of mail, immediately, in the morning digest, or off; the
 * mandatory mails are named as always sent. Where the portal sends no mail (no SMTP_URL) it says so and offers nothing.
 */
export function MailPreferences() {
  const { t } = useTranslation('people');
  const prefs = useMailPreferences();
  const save = useSetMailPreference();

  if (prefs.isPending) {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" />
        <Text>{t('mail.loading')}</Text>
      </Group>
    );
  }
  if (prefs.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        <Text c="gray.9">{t('mail.loadFailed')}</Text>
      </Alert>
    );
  }
  if (!prefs.data.email) return <Text size="sm">{t('mail.off')}</Text>;

  const choose = (kind: MailPreferenceKind, choice: MailChoice) =>
    save.mutate(
      { preferences: { [kind]: choice } },
      {
        onSuccess: () => notifications.show({ color: 'green', message: t('mail.saved') }),
        onError: (err) => notifications.show({ color: 'red', message: serverMessage(err) || t('mail.failed') }),
      },
    );

  return (
    <Stack gap="md">
      <Text size="sm" c="gray.8">
        {t('mail.intro')}
      </Text>
      {prefs.data.preferences.map(({ kind, choice }) => (
        <Radio.Group
          key={kind}
          label={t(`mail.kinds.${kind}`)}
          value={choice}
          onChange={(v) => choose(kind, v as MailChoice)}
        >
          <Group gap="lg" mt={6}>
            {CHOICES.map((c) => (
              <Radio key={c} value={c} label={t(`mail.choices.${c}`)} disabled={save.isPending} />
            ))}
          </Group>
        </Radio.Group>
      ))}
      <Text size="sm" c="gray.8">
        {t('mail.mandatory')}
      </Text>
    </Stack>
  );
}
