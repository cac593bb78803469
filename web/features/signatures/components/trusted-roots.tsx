import { Button, Card, Group, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { type TrustedRootInput, trustedRootInput } from '#shared/schemas/signature.ts';

import { DataTable } from '#web/components/data-table.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useAddRoot, useRemoveRoot, useTrustedRoots } from '../api.ts';

function AddRoot() {
  const { t } = useTranslation('signatures');
  const headingId = useId();
  const [banner, setBanner] = useState('');
  const add = useAddRoot();
  const form = useForm<TrustedRootInput>({
    mode: 'controlled',
    initialValues: { label: '', pem: '' },
    validate: zodValidate<TrustedRootInput>(trustedRootInput),
  });
  const { field } = translatedErrors(form);
  const submit = form.onSubmit((values) => {
    setBanner('');
    add.mutate(values, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: t('roots.added') });
        form.reset();
      },
      onError: (err) => {
        if (!applyServerError(form, err)) setBanner(serverMessage(err, t('roots.failed')));
      },
    });
  });
  return (
    <Card withBorder radius="md" component="section" aria-labelledby={headingId}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id={headingId}>
            {t('roots.add')}
          </Title>
          {banner && <PanelError>{banner}</PanelError>}
          <TextInput label={t('roots.label')} {...field('label')} required w={{ base: '100%', sm: 360 }} />
          <Textarea
            label={t('roots.pem')}
            {...field('pem')}
            required
            autosize
            minRows={6}
            maxRows={14}
            styles={{ input: { fontFamily: 'monospace' } }}
          />
          <Group>
            <Button type="submit" loading={add.isPending}>
              {t('roots.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** Admin → Trusted Roots (decision 123): the roots a signer's chain may end at, added by pasting a PEM. */
export function TrustedRoots() {
  const { t } = useTranslation('signatures');
  const { formatDate } = useFormatDate();
  const roots = useTrustedRoots();
  const remove = useRemoveRoot();
  return (
    <Stack gap="md">
      <Text>{t('roots.intro')}</Text>
      {roots.isPending ? (
        <PanelLoader />
      ) : roots.isError ? (
        <PanelError>{serverMessage(roots.error, t('roots.failed'))}</PanelError>
      ) : roots.data.length === 0 ? (
        <Text c="gray.8">{t('roots.empty')}</Text>
      ) : (
        <DataTable
          caption={t('roots.title')}
          minWidth={720}
          actions
          headers={[t('roots.label'), t('roots.subject'), t('roots.validTo'), t('roots.fingerprint')]}
        >
          {roots.data.map((r) => (
            <Table.Tr key={r._id}>
              <Table.Td>{r.label}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.subject}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(r.validTo)}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere', fontFamily: 'monospace', fontSize: 12 }}>
                {r.fingerprint256}
              </Table.Td>
              <Table.Td>
                <Button
                  variant="subtle"
                  color="red.9"
                  size="xs"
                  aria-label={t('roots.removeLabel', { label: r.label })}
                  loading={remove.isPending && remove.variables === r._id}
                  onClick={() =>
                    remove.mutate(r._id, {
                      onSuccess: () => notifications.show({ color: 'green', message: t('roots.removed') }),
                    })
                  }
                >
                  {t('roots.remove')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
      <AddRoot />
    </Stack>
  );
}
