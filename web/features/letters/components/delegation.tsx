import { Alert, Badge, Button, Card, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { todayInIndia } from '#shared/format.ts';
import { delegationInput, type DelegationJson } from '#shared/schemas/letter.ts';

import { DateField } from '#web/components/date-field.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { isAdmin } from '#web/lib/access.policy.ts';
import { useStoredLogin } from '#web/lib/auth-storage.ts';
import { applyServerError, serverMessage, topField, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useCreateDelegation, useDelegations, useEndDelegation, useOfficers } from '../api.ts';

/** One delegation: who for whom, the dates, running or to come, and End for the officer (or an admin). */
function DelegationRow({ d, canEnd }: { d: DelegationJson; canEnd: boolean }) {
  const { t } = useTranslation('letters');
  const { formatDate } = useFormatDate();
  const end = useEndDelegation();
  const onEnd = () =>
    end.mutate(d._id, {
      onSuccess: () =>
        notifications.show({ color: 'green', message: t('dak.delegation.ended', { name: d.delegate.name }) }),
      onError: (err) => notifications.show({ color: 'red', message: serverMessage(err) || t('dak.failed') }),
    });
  return (
    <Card component="li" withBorder radius="md" padding="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Text fw={600}>{t('dak.delegation.line', { delegate: d.delegate.name, officer: d.officer.name })}</Text>
          <Group gap="xs">
            <Text size="sm">
              {t('dak.delegation.period', { from: formatDate(d.fromDate), to: formatDate(d.toDate) })}
            </Text>
            <Badge
              color={d.active ? '#1b5e20' : 'gray.8'}
              variant={d.active ? 'filled' : 'outline'}
              radius="sm"
              tt="none"
            >
              {d.active ? t('dak.delegation.active') : t('dak.delegation.upcoming')}
            </Badge>
          </Group>
        </Stack>
        {canEnd && (
          <Button
            variant="default"
            onClick={onEnd}
            loading={end.isPending}
            aria-label={t('dak.delegation.endLabel', { name: d.delegate.name })}
          >
            {t('dak.delegation.end')}
          </Button>
        )}
      </Group>
    </Card>
  );
}

/**
 * Delegation of dak (decision 078): name a delegate for some days, see the delegations running or to come,
 * end one early; and the officers who delegated their dak to me. An administrator may choose the officer.
 */
export function Delegation() {
  const { t } = useTranslation('letters');
  const { formatDate } = useFormatDate();
  const { user } = useStoredLogin();
  const userId = user?._id ?? null;
  const admin = isAdmin(user?.role ?? null);
  const [officerId, setOfficerId] = useState('');
  const officers = useOfficers(true);
  const delegations = useDelegations(officerId);
  const create = useCreateDelegation();
  const [banner, setBanner] = useState('');
  const today = todayInIndia();
  const form = useForm({
    mode: 'controlled',
    initialValues: { delegateId: '', fromDate: today, toDate: today },
    validate: zodValidate(delegationInput, { fold: topField }),
  });
  const { field } = translatedErrors(form);
  const options = (officers.data ?? []).map((o) => ({
    value: o._id,
    label: [o.name, o.designation].filter(Boolean).join(' — '),
  }));
  const submit = form.onSubmit((values) => {
    setBanner('');
    create.mutate(
      { ...values, officerId: officerId || undefined },
      {
        onSuccess: (d) => {
          notifications.show({
            color: 'green',
            message: t('dak.delegation.done', {
              name: d.delegate.name,
              from: formatDate(d.fromDate),
              to: formatDate(d.toDate),
            }),
          });
          form.setFieldValue('delegateId', '');
        },
        onError: (err) => {
          if (!applyServerError(form, err, { fold: topField })) setBanner(serverMessage(err, t('dak.failed')));
        },
      },
    );
  });
  const officerName = delegations.data?.officer.name ?? '';
  return (
    <Stack gap="lg">
      <Text>{t('dak.delegation.intro')}</Text>
      {admin && (
        <Select
          label={t('dak.delegation.officer')}
          description={t('dak.delegation.officerHint')}
          data={[{ value: '', label: t('dak.delegation.me') }, ...options]}
          value={officerId}
          onChange={(v) => setOfficerId(v ?? '')}
          searchable
          allowDeselect={false}
          maw={480}
        />
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm" maw={480}>
          {banner && <PanelError>{banner}</PanelError>}
          <Select
            label={t('dak.delegation.delegate')}
            data={options.filter((o) => o.value !== (officerId || userId))}
            {...field('delegateId')}
            searchable
            required
            nothingFoundMessage={t('dak.mark.noOfficer')}
          />
          <Group grow align="flex-start">
            <DateField label={t('dak.delegation.from')} {...field('fromDate')} required />
            <DateField label={t('dak.delegation.to')} {...field('toDate')} required />
          </Group>
          <Group>
            <Button type="submit" loading={create.isPending}>
              {t('dak.delegation.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
      {delegations.isPending ? (
        <Group gap="sm">
          <Loader size="sm" aria-hidden="true" />
          <Text>{t('dak.delegation.loading')}</Text>
        </Group>
      ) : delegations.isError ? (
        <Alert color="red" variant="light" role="alert">
          <Text c="gray.9">{serverMessage(delegations.error) || t('dak.delegation.failed')}</Text>
        </Alert>
      ) : (
        <>
          <section aria-labelledby="delegations-given">
            <Title order={2} size="h4" mb="xs" id="delegations-given">
              {t('dak.delegation.given', { name: officerName })}
            </Title>
            {delegations.data.given.length === 0 ? (
              <Text>{t('dak.delegation.noneGiven')}</Text>
            ) : (
              <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
                {delegations.data.given.map((d) => (
                  <DelegationRow key={d._id} d={d} canEnd />
                ))}
              </Stack>
            )}
          </section>
          {!officerId && (
            <section aria-labelledby="delegations-received">
              <Title order={2} size="h4" mb="xs" id="delegations-received">
                {t('dak.delegation.received')}
              </Title>
              {delegations.data.received.length === 0 ? (
                <Text>{t('dak.delegation.noneReceived')}</Text>
              ) : (
                <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
                  {delegations.data.received.map((d) => (
                    <DelegationRow key={d._id} d={d} canEnd={false} />
                  ))}
                </Stack>
              )}
            </section>
          )}
        </>
      )}
    </Stack>
  );
}
