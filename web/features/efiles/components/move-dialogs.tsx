import { Modal, MultiSelect, Select, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { type FormEvent, type ReactNode, useState } from 'react';
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

type Handlers = { onSuccess: () => void; onError: (err: unknown) => void };

/**
 * A move's form (Send, Return, Route): its shared schema, errors on their inputs in the reader's language, other
 * refusals as a banner; `submitWith` runs the move with the form's values and, once done, shows its notice and closes.
 */
function useMoveForm<V extends Record<string, unknown>>(
  initialValues: V,
  schema: Parameters<typeof zodValidate>[0],
  onClose: () => void,
) {
  const { t } = useTranslation('efiles');
  const [banner, setBanner] = useState('');
  const form = useForm<V>({ mode: 'controlled', initialValues, validate: zodValidate<V>(schema, { fold: topField }) });
  const { field } = translatedErrors(form);
  const onError = (err: unknown) => {
    if (!applyServerError(form, err, { fold: topField })) setBanner(serverMessage(err, t('failed')));
  };
  const submitWith = (run: (values: V, handlers: Handlers) => void, notice: (values: V) => string) =>
    form.onSubmit(
      (values) => {
        setBanner('');
        run(values, {
          onSuccess: () => {
            notifications.show({ color: 'green', message: notice(values) });
            onClose();
          },
          onError,
        });
      },
      () => setBanner(''),
    );
  return { field, banner, submitWith };
}

/** The dialog of a move: its title, an introduction, the refusal banner, its fields and Cancel / submit. */
function MoveDialog({
  title,
  intro,
  banner,
  onSubmit,
  onClose,
  submitLabel,
  pending,
  children,
}: {
  title: string;
  intro?: ReactNode;
  banner: string;
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  submitLabel: string;
  pending: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('efiles');
  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {intro}
          {banner && <PanelError>{banner}</PanelError>}
          {children}
          <FormActions onCancel={onClose} cancelLabel={t('form.cancel')} submitLabel={submitLabel} pending={pending} />
        </Stack>
      </form>
    </Modal>
  );
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
  const { field, banner, submitWith } = useMoveForm(
    {
      to: next ?? '',
      copies: [] as string[],
      remarks: '',
      dueDate: '',
      priority: 'Normal' as DakPriority,
      route: rest,
    },
    sendEfileInput,
    onClose,
  );
  const toList = useInPlaceCombobox();
  const copyList = { ...useInPlaceCombobox(), ...useClosingOnPick() };
  const routeList = { ...useInPlaceCombobox(), ...useClosingOnPick() };
  const priorityList = useInPlaceCombobox();
  const submit = submitWith(
    (values, handlers) =>
      send.mutate({ id: file._id, input: { ...values, dueDate: values.dueDate || null } }, handlers),
    (values) => {
      const name = options.find((o) => o.value === values.to)?.label.split(' — ')[0] ?? '';
      return t('send.done', { number: file.number, name });
    },
  );
  return (
    <MoveDialog
      title={t('send.title', { number: file.number })}
      banner={banner}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={t('send.submit')}
      pending={send.isPending}
    >
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
    </MoveDialog>
  );
}

/** Return the file to whoever sent it last, with remarks. */
export function ReturnDialog({ file, onClose }: { file: EfileJson; onClose: () => void }) {
  const { t } = useTranslation('efiles');
  const back = useReturnEfile();
  const { field, banner, submitWith } = useMoveForm({ remarks: '' }, remarksInput, onClose);
  const submit = submitWith(
    (values, handlers) => back.mutate({ id: file._id, remarks: values.remarks }, handlers),
    () => t('return.done', { number: file.number }),
  );
  return (
    <MoveDialog
      title={t('return.title', { number: file.number })}
      banner={banner}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={t('return.submit')}
      pending={back.isPending}
    >
      <Textarea label={t('return.remarks')} {...field('remarks')} autosize minRows={3} />
    </MoveDialog>
  );
}

/** Edit the intended route: the officers the file is to pass, in order (anyone holding it may change the rest). */
export function RouteDialog({ file, onClose }: { file: EfileJson; onClose: () => void }) {
  const { t } = useTranslation('efiles');
  const setRoute = useSetRoute();
  const { options } = useOfficerOptions(file);
  const { field, banner, submitWith } = useMoveForm({ route: file.route.map((p) => p._id) }, routeInput, onClose);
  const routeList = { ...useInPlaceCombobox(), ...useClosingOnPick() };
  const submit = submitWith(
    (values, handlers) => setRoute.mutate({ id: file._id, route: values.route }, handlers),
    () => t('route.done', { number: file.number }),
  );
  return (
    <MoveDialog
      title={t('route.title', { number: file.number })}
      intro={<Text size="sm">{t('route.hint')}</Text>}
      banner={banner}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={t('route.submit')}
      pending={setRoute.isPending}
    >
      <MultiSelect label={t('route.officers')} data={options} {...field('route')} searchable clearable {...routeList} />
    </MoveDialog>
  );
}
