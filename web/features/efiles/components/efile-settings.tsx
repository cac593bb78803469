import { Button, Card, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { efileHeadInput, efileSettingsInput } from '#shared/schemas/efile.ts';

import { PanelError } from '#web/components/panel-error.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { ScrollTable } from '#web/components/scroll-table.tsx';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { type EfileSettingsJson, useAddHead, useEfileHeads, useEfileSettings, useUpdateSettings } from '../api.ts';

function SchemeForm({ settings }: { settings: EfileSettingsJson }) {
  const { t } = useTranslation('efiles');
  const [banner, setBanner] = useState('');
  const update = useUpdateSettings();
  const form = useForm<EfileSettingsJson>({
    mode: 'controlled',
    initialValues: settings,
    validate: zodValidate<EfileSettingsJson>(efileSettingsInput),
  });
  const { field } = translatedErrors(form);
  const submit = form.onSubmit((values) => {
    setBanner('');
    update.mutate(values, {
      onSuccess: () => notifications.show({ color: 'green', message: t('admin.saved') }),
      onError: (err) => {
        if (!applyServerError(form, err)) setBanner(serverMessage(err, t('failed')));
      },
    });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {banner && <PanelError>{banner}</PanelError>}
        <TextInput label={t('admin.scheme')} description={t('admin.schemeHint')} {...field('numberScheme')} required />
        <TextInput label={t('admin.labCode')} {...field('labCode')} required w={{ base: '100%', sm: 240 }} />
        <Group>
          <Button type="submit" loading={update.isPending}>
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AddHead() {
  const { t } = useTranslation('efiles');
  const [banner, setBanner] = useState('');
  const add = useAddHead();
  const form = useForm({
    mode: 'controlled',
    initialValues: { code: '', name: '' },
    validate: zodValidate<{ code: string; name: string }>(efileHeadInput),
  });
  const { field } = translatedErrors(form);
  const submit = form.onSubmit((values) => {
    setBanner('');
    add.mutate(values, {
      onSuccess: (h) => {
        notifications.show({ color: 'green', message: t('admin.headAdded', { code: h.code }) });
        form.reset();
      },
      onError: (err) => {
        if (!applyServerError(form, err)) setBanner(serverMessage(err, t('failed')));
      },
    });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {banner && <PanelError>{banner}</PanelError>}
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput label={t('admin.headCode')} {...field('code')} required w={160} />
          <TextInput label={t('admin.headName')} {...field('name')} required w={{ base: '100%', sm: 360 }} />
        </Group>
        <Group>
          <Button type="submit" variant="light" loading={add.isPending}>
            {t('admin.addHead')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The admin's e-file settings (decision 107): the numbering scheme, the lab's code, and the list of heads. */
export function EfileSettings() {
  const { t } = useTranslation('efiles');
  const settings = useEfileSettings();
  const heads = useEfileHeads();
  const schemeId = useId();
  const headsId = useId();
  return (
    <Stack gap="lg">
      <Card component="section" withBorder aria-labelledby={schemeId}>
        <Title order={2} size="h4" id={schemeId} mb="sm">
          {t('admin.schemeTitle')}
        </Title>
        {settings.isPending ? (
          <PanelLoader />
        ) : settings.isError ? (
          <PanelError>{serverMessage(settings.error, t('failed'))}</PanelError>
        ) : (
          // A saved scheme comes back from the server: the form starts again from it.
          <SchemeForm key={settings.dataUpdatedAt} settings={settings.data} />
        )}
      </Card>
      <Card component="section" withBorder aria-labelledby={headsId}>
        <Title order={2} size="h4" id={headsId} mb="sm">
          {t('admin.headsTitle')}
        </Title>
        {heads.isPending ? (
          <PanelLoader />
        ) : heads.data?.length ? (
          <ScrollTable label={t('admin.headsTitle')} minWidth={360} mb="md">
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin.headCode')}</Table.Th>
                  <Table.Th>{t('admin.headName')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {heads.data.map((h) => (
                  <Table.Tr key={h._id}>
                    <Table.Td>{h.code}</Table.Td>
                    <Table.Td>{h.name}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        ) : (
          <Text mb="md">{t('admin.noHeads')}</Text>
        )}
        <AddHead />
      </Card>
    </Stack>
  );
}
