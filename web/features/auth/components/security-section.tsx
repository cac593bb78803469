import { Button, Card, Group, Modal, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useNewRecoveryCodes, useRemoveSecondFactor, useSecondFactors } from '../api.ts';
import { AddPasskeyForm } from './add-passkey-form.tsx';
import { RecoveryCodesShown, TotpEnrolment } from './second-factor.tsx';

/**
 * My Account → Security (decision 064): my second factors with add and remove, the recovery codes left and new
 * ones for a fresh code.
 */
export function SecuritySection() {
  const { t } = useTranslation('auth');
  const { formatDate } = useFormatDate();
  const mine = useSecondFactors();
  const remove = useRemoveSecondFactor();
  const renew = useNewRecoveryCodes();
  const [adding, setAdding] = useState(false);
  // Adding a passkey (decision 065); then the first factor's recovery codes, once.
  const [addingPasskey, setAddingPasskey] = useState(false);
  const [passkeyCodes, setPasskeyCodes] = useState<string[] | null>(null);
  const closePasskey = () => {
    setAddingPasskey(false);
    setPasskeyCodes(null);
  };
  const [renewing, setRenewing] = useState(false);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const data = mine.data;
  const closeRenew = () => {
    setRenewing(false);
    setCodes(null);
    setCode('');
    renew.reset();
  };
  return (
    // Below the profile dashboard's cards, at their spacing (its Stack's gap="lg").
    <Card withBorder radius="md" padding="lg" mt="lg">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t('security.title')}
        </Title>
        <Text size="sm" c="gray.8">
          {data?.required ? t('security.required') : t('security.intro')}
        </Text>
        {data && data.factors.length === 0 && <Text size="sm">{t('security.none')}</Text>}
        {data && data.factors.length > 0 && (
          <Table.ScrollContainer minWidth={320}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('security.name')}</Table.Th>
                  <Table.Th>{t('security.added')}</Table.Th>
                  <Table.Th>{t('security.lastUsed')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('security.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.factors.map((f) => (
                  <Table.Tr key={f.id}>
                    <Table.Td>
                      {/* The kind under the name, as text: a badge was cut to "AUTHE…" in a 390 px column. */}
                      <Text size="sm">{f.label}</Text>
                      <Text size="xs" c="gray.8">
                        {t(`security.kind.${f.kind}`)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatDate(f.createdAt)}</Table.Td>
                    <Table.Td>{formatDate(f.lastUsedAt, '—')}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        // NOTE: the subtle variant draws its text in red 6 whatever shade is named (3.3:1 on white);
                        // red 9 passes AA (WCAG 1.4.3).
                        c="red.9"
                        aria-label={t('security.removeNamed', { name: f.label })}
                        onClick={() =>
                          remove.mutate(f.id, {
                            onError: (err) =>
                              notifications.show({
                                color: 'red',
                                message: serverMessage(err, t('secondFactor.failed')),
                              }),
                          })
                        }
                      >
                        {t('security.remove')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {data && data.factors.length > 0 && (
          <Text size="sm">{t('security.codesLeft', { count: data.recoveryCodesLeft })}</Text>
        )}
        <Group>
          <Button onClick={() => setAddingPasskey(true)}>{t('passkey.add')}</Button>
          <Button variant="outline" onClick={() => setAdding(true)}>
            {t('security.add')}
          </Button>
          {data && data.factors.length > 0 && (
            <Button variant="outline" onClick={() => setRenewing(true)}>
              {t('security.newCodes')}
            </Button>
          )}
        </Group>
      </Stack>
      <Modal opened={adding} onClose={() => setAdding(false)} title={t('secondFactor.enrolTitle')}>
        {adding && <TotpEnrolment optional onDone={() => setAdding(false)} />}
      </Modal>
      <Modal opened={addingPasskey} onClose={closePasskey} title={t('passkey.add')}>
        {passkeyCodes ? (
          <RecoveryCodesShown codes={passkeyCodes} onContinue={closePasskey} />
        ) : (
          <Stack gap="md">
            <Text size="sm">{t('passkey.intro')}</Text>
            <AddPasskeyForm
              onAdded={(answer) => {
                notifications.show({ color: 'green', message: t('passkey.added') });
                if (answer.recoveryCodes?.length) setPasskeyCodes(answer.recoveryCodes);
                else closePasskey();
              }}
            />
          </Stack>
        )}
      </Modal>
      <Modal opened={renewing} onClose={closeRenew} title={t('security.newCodes')}>
        {codes ? (
          <RecoveryCodesShown codes={codes} onContinue={closeRenew} />
        ) : (
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              renew.mutate(code, { onSuccess: (a) => setCodes(a.recoveryCodes) });
            }}
          >
            <Stack gap="md">
              <Text size="sm">{t('security.newCodesIntro')}</Text>
              <TextInput
                label={t('secondFactor.code')}
                autoComplete="one-time-code"
                required
                data-autofocus
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                error={renew.error ? serverMessage(renew.error, t('secondFactor.failed')) : undefined}
              />
              <Button type="submit" loading={renew.isPending}>
                {t('security.newCodes')}
              </Button>
            </Stack>
          </form>
        )}
      </Modal>
    </Card>
  );
}
