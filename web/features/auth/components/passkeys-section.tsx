import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useRemoveFactor, useSecondFactors } from '../passkeys-api.ts';
import { AddPasskeyForm } from './add-passkey-form.tsx';
import { RecoveryCodesNote } from './recovery-codes-note.tsx';

/**
 * My Account → Security → Passkeys (decision 065): the person's passkeys with when each was added and last used,
 * removing one, and adding one with a name. The recovery codes of a first factor are shown once.
 */
export function PasskeysSection() {
  const { t } = useTranslation('auth');
  const { formatDate, formatDateTime } = useFormatDate();
  const factors = useSecondFactors();
  const remove = useRemoveFactor();
  const [codes, setCodes] = useState<string[] | null>(null);
  const passkeys = factors.data?.factors.filter((f) => f.kind === 'passkey') ?? [];

  const onRemove = (id: string) =>
    remove.mutate(id, {
      onSuccess: () => notifications.show({ color: 'green', message: t('passkey.removed') }),
      onError: (err) => notifications.show({ color: 'red', message: serverMessage(err, t('passkey.failed')) }),
    });

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={t('passkey.title')}>
      <Title order={2} size="h4" mb="sm">
        {t('passkey.title')}
      </Title>
      <Stack gap="md">
        <Text size="sm" c="gray.8">
          {t('passkey.intro')}
        </Text>
        {factors.isSuccess && passkeys.length === 0 && <Text c="gray.8">{t('passkey.none')}</Text>}
        {passkeys.length > 0 && (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {passkeys.map((p) => (
              <Group key={p.id} component="li" justify="space-between" wrap="wrap" gap="xs">
                <div>
                  <Text fw={600}>{p.label}</Text>
                  <Text size="sm" c="gray.8">
                    {t('passkey.addedOn', { date: formatDate(p.createdAt) })} ·{' '}
                    {p.lastUsedAt
                      ? t('passkey.lastUsed', { date: formatDateTime(p.lastUsedAt) })
                      : t('passkey.neverUsed')}
                  </Text>
                </div>
                <Button
                  variant="outline"
                  color="red.9"
                  size="xs"
                  aria-label={t('passkey.removeNamed', { label: p.label })}
                  loading={remove.isPending && remove.variables === p.id}
                  onClick={() => onRemove(p.id)}
                >
                  {t('passkey.remove')}
                </Button>
              </Group>
            ))}
          </Stack>
        )}
        {codes && <RecoveryCodesNote codes={codes} />}
        <AddPasskeyForm
          onAdded={(answer) => {
            notifications.show({ color: 'green', message: t('passkey.added') });
            if (answer.recoveryCodes) setCodes(answer.recoveryCodes);
          }}
        />
      </Stack>
    </Card>
  );
}
