import { Modal, MultiSelect, Select, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { DAK_PRIORITIES } from '#shared/constants.ts';
import { type EfileJson, remarksInput, routeInput, sendEfileInput } from '#shared/schemas/efile.ts';
import type { DakPriority } from '#shared/schemas/letter.ts';

import { DateField } from '#web/components/date-field.tsx';
import { FormActions } from '#web/components/form-actions.tsx';
import { useClosingOnPick, useInPlaceCombobox } from '#web/components/in-place-combobox.ts';
import { PanelError } from '#web/components/panel-error.tsx';
import { applyServerError, serverMessage, topField, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useEfileOfficers, useReturnEfile, useSendEfile, useSetRoute } from '../api.ts';

/** A dialog's form: its shared schema, errors on their inputs in the reader's language, other refusals as a banner. */
function useMoveForm<V extends Record<string, unknown>>(initialValues: V, schema: Parameters<typeof zodValidate>[0]) {
  const { t } = useTranslation('efiles');
  const [banner, setBanner] = useState('');
  const form = useForm<V>({ mode: 'controlled', initialValues, validate: zodValidate<V>(schema, { fold: topField }) });
  const { field } = translatedErrors(form);
  const onError = (err: unknown) => {
    if (!applyServerError(form, err, { fold: topField })) setBanner(serverMessage(err, t('failed')));
  };
  const onSubmit = (send: (values: V) => void) =>
    form.onSubmit(
      (values) => {
        setBanner('');
        send(values);
      },
      () => setBanner(''),
    );
  return { field, banner, onError, onSubmit };
}

/** The officers a file may go to: name, designation and group; those not cleared greyed for a guarded file. */
function useOfficerOptions(file: EfileJson) {
  const officers = useEfileOfficers(true);
  const guarded = file.classification === 'Confidential' || file.classification === 'Secret';
  return {
    pending: officers.isPending,
    options: (officers.data ?? []).map((o) => ({
      value: o._id,
      label: [o.name, [o.designation, o.group?.name].filter(Boolean).join(', ')].filter(Boolean).join(' — '),
      disabled: guarded && !o.cleared,
    })),
  };
}

/** Send the file to one officer (decision 107): copies, remarks, due date, priority, and the rest of the route. */
export function SendDialog({ file, onClose }: { file: EfileJson; onClose: () => void }) {
  const { t } = useTranslation('efiles');
  const send = useSendEfile();
  const { options, pending } = useOfficerOptions(file);
  const [next, ...rest] = file.route.map((p) => p._id);
  const { field, banner, onError, onSubmit } = useMoveForm(
    {
      to: next ?? '',
      copies: [] as string[],
      remarks: '',
      dueDate: '',
      priority: 'Normal' as DakPriority,
      route: rest,
    },
    sendEfileInput,
  );
  const toList = useInPlaceCombobox();
  const copyList = { ...useInPlaceCombobox(), ...useClosingOnPick() };
  const routeList = { ...useInPlaceCombobox(), ...useClosingOnPick() };
  const priorityList = useInPlaceCombobox();
  const submit = onSubmit((values) =>
    send.mutate(
      { id: file._id, input: { ...values, dueDate: values.dueDate || null } },
      {
        onSuccess: () => {
          const name = options.find((o) => o.value === values.to)?.label.split(' — ')[0] ?? '';
          notifications.show({ color: 'green', message: t('send.done', { number: file.number, name }) });
          onClose();
        },
        onError,
      },
    ),
  );
  return (
    <Modal opened onClose={onClose} title={t('send.title', { number: file.number })} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {banner && <PanelError>{banner}</PanelError>}
          <Select
            label={t('send.to')}
            placeholder={pending ? t('loading') : t('send.toPlaceholder')}
            data={options}
            {...field('to')}
            searchable
            required
            nothingFoundMessage={t('send.noOfficer')}
            {...toList}
          />
          <MultiSelect
            label={t('send.copies')}
            description={t('send.copiesHint')}
            data={options}
            {...field('copies')}
            searchable
            clearable
            {...copyList}
          />
          <Textarea label={t('send.remarks')} {...field('remarks')} autosize minRows={2} />
          <DateField label={t('send.dueDate')} {...field('dueDate')} minDate={new Date()} />
          <Select
            label={t('send.priority')}
            data={DAK_PRIORITIES.map((p) => ({ value: p, label: t(`priority.${p}`) }))}
            {...field('priority')}
            allowDeselect={false}
            {...priorityList}
          />
          <MultiSelect
            label={t('send.route')}
            description={t('send.routeHint')}
            data={options}
            {...field('route')}
            searchable
            clearable
            {...routeList}
          />
          <FormActions
            onCancel={onClose}
            cancelLabel={t('form.cancel')}
            submitLabel={t('send.submit')}
            pending={send.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/** Return the file to whoever sent it last, with remarks. */
export function ReturnDialog({ file, onClose }: { file: EfileJson; onClose: () => void }) {
  const { t } = useTranslation('efiles');
  const back = useReturnEfile();
  const { field, banner, onError, onSubmit } = useMoveForm({ remarks: '' }, remarksInput);
  const submit = onSubmit((values) =>
    back.mutate(
      { id: file._id, remarks: values.remarks },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t('return.done', { number: file.number }) });
          onClose();
        },
        onError,
      },
    ),
  );
  return (
    <Modal opened onClose={onClose} title={t('return.title', { number: file.number })} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {banner && <PanelError>{banner}</PanelError>}
          <Textarea label={t('return.remarks')} {...field('remarks')} autosize minRows={3} />
          <FormActions
            onCancel={onClose}
            cancelLabel={t('form.cancel')}
            submitLabel={t('return.submit')}
            pending={back.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/** Edit the intended route: the officers the file is to pass, in order (anyone holding it may change the rest). */
export function RouteDialog({ file, onClose }: { file: EfileJson; onClose: () => void }) {
  const { t } = useTranslation('efiles');
  const setRoute = useSetRoute();
  const { options } = useOfficerOptions(file);
  const { field, banner, onError, onSubmit } = useMoveForm({ route: file.route.map((p) => p._id) }, routeInput);
  const routeList = { ...useInPlaceCombobox(), ...useClosingOnPick() };
  const submit = onSubmit((values) =>
    setRoute.mutate(
      { id: file._id, route: values.route },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t('route.done', { number: file.number }) });
          onClose();
        },
        onError,
      },
    ),
  );
  return (
    <Modal opened onClose={onClose} title={t('route.title', { number: file.number })} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('route.hint')}</Text>
          {banner && <PanelError>{banner}</PanelError>}
          <MultiSelect
            label={t('route.officers')}
            data={options}
            {...field('route')}
            searchable
            clearable
            {...routeList}
          />
          <FormActions
            onCancel={onClose}
            cancelLabel={t('form.cancel')}
            submitLabel={t('route.submit')}
            pending={setRoute.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
