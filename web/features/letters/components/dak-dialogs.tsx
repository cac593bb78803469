import { Group, Modal, MultiSelect, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { DAK_PRIORITIES } from '#shared/constants.ts';
import type { LetterJson } from '#shared/schemas/letter.ts';
import { closeLetterInput, type DakPriority, markLetterInput, returnLetterInput } from '#shared/schemas/letter.ts';

import { DateField } from '#web/components/date-field.tsx';
import { FormActions } from '#web/components/form-actions.tsx';
import { useClosingOnPick, useInPlaceCombobox } from '#web/components/in-place-combobox.ts';
import { PanelError } from '#web/components/panel-error.tsx';
import { leadsGroups } from '#web/lib/access.policy.ts';
import { applyServerError, serverMessage, topField, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useCloseLetter, useMarkLetter, useOfficers, useReturnLetter } from '../api.ts';

/**
 * The form of a dak dialog: its shared schema through the one resolver, errors shown on their inputs in the current
 * language, and a refusal the server gives on no input of the dialog as the red banner ('dak.failed' if it said none).
 */
function useDakForm<V extends Record<string, unknown>>(
  initialValues: V,
  schema: Parameters<typeof zodValidate>[0],
  toInput?: (values: V) => unknown,
) {
  const { t } = useTranslation('letters');
  const [banner, setBanner] = useState('');
  const form = useForm<V>({
    mode: 'controlled',
    initialValues,
    validate: zodValidate<V>(schema, { toInput, fold: topField }),
  });
  const { field } = translatedErrors(form);
  const onError = (err: unknown) => {
    if (!applyServerError(form, err, { fold: topField })) setBanner(serverMessage(err, t('dak.failed')));
  };
  /** Checks, clears the banner, and hands valid values to `send`. */
  const onSubmit = (send: (values: V) => void) =>
    form.onSubmit(
      (values) => {
        setBanner('');
        send(values);
      },
      () => setBanner(''),
    );
  return { form, field, banner, onError, onSubmit };
}

/**
 * Mark a letter to one or more officers (decision 020): officers (associate directors are named with their
 * group), remarks, an optional due date and a priority. A Confidential or Secret letter offers only those cleared.
 */
export function MarkLetterDialog({ letter, onClose }: { letter: LetterJson; onClose: () => void }) {
  const { t } = useTranslation('letters');
  const officers = useOfficers(true);
  const mark = useMarkLetter();
  const { field, banner, onError, onSubmit } = useDakForm(
    { to: [] as string[], info: [] as string[], remarks: '', dueDate: '', priority: 'Normal' as DakPriority },
    markLetterInput,
    (values) => ({ ...values, dueDate: values.dueDate || null }),
  );
  // Both option lists open inside the dialog (axe region), never cut off by it.
  const officerList = { ...useInPlaceCombobox(), ...useClosingOnPick() };
  const infoList = { ...useInPlaceCombobox(), ...useClosingOnPick() };
  const priorityList = useInPlaceCombobox();
  const classified = letter.classification !== 'Normal';
  const options = (officers.data ?? [])
    .slice()
    .sort((a, b) => Number(leadsGroups(b.role)) - Number(leadsGroups(a.role)))
    .map((o) => ({
      value: o._id,
      label: [
        o.name,
        leadsGroups(o.role)
          ? t('dak.mark.adOf', { group: o.group?.name ?? t('unknown') })
          : [o.designation, o.group?.name].filter(Boolean).join(', '),
      ]
        .filter(Boolean)
        .join(' — '),
      disabled: classified && !o.cleared,
    }));

  const submit = onSubmit((values) =>
    mark.mutate(
      { id: letter._id, input: { ...values, dueDate: values.dueDate || null } },
      {
        onSuccess: (created) => {
          // Officers who hold it, then the copies for information: one officer and one copy is not "2 officers".
          const copies = created.filter((m) => m.forInformation).length;
          const held = t('dak.mark.done', { count: created.length - copies, letterId: letter.letterId });
          notifications.show({
            color: 'green',
            message: copies ? `${held} ${t('dak.mark.copiesDone', { count: copies })}` : held,
          });
          onClose();
        },
        onError,
      },
    ),
  );

  return (
    <Modal opened onClose={onClose} title={t('dak.mark.title', { letterId: letter.letterId })} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="gray.8">
            {letter.letterSub}
          </Text>
          {classified && (
            <Text size="sm" c="gray.9">
              {t('dak.mark.classifiedHint', { classification: t(`classification.${letter.classification}`) })}
            </Text>
          )}
          {banner && <PanelError>{banner}</PanelError>}
          <MultiSelect
            label={t('dak.mark.to')}
            description={t('dak.mark.toHint')}
            placeholder={officers.isPending ? t('dak.mark.loadingOfficers') : t('dak.mark.toPlaceholder')}
            data={options}
            {...field('to')}
            searchable
            clearable
            nothingFoundMessage={t('dak.mark.noOfficer')}
            required
            {...officerList}
          />
          <MultiSelect
            label={t('dak.mark.info')}
            description={t('dak.mark.infoHint')}
            placeholder={officers.isPending ? t('dak.mark.loadingOfficers') : t('dak.mark.toPlaceholder')}
            data={options}
            {...field('info')}
            searchable
            clearable
            nothingFoundMessage={t('dak.mark.noOfficer')}
            {...infoList}
          />
          <Textarea label={t('dak.mark.remarks')} {...field('remarks')} autosize minRows={2} />
          <Group grow align="flex-start">
            <DateField label={t('dak.mark.dueDate')} {...field('dueDate')} minDate={new Date()} />
            <Select
              label={t('dak.mark.priority')}
              data={DAK_PRIORITIES.map((p) => ({ value: p, label: t(`dak.priority.${p}`) }))}
              {...field('priority')}
              allowDeselect={false}
              {...priorityList}
            />
          </Group>
          <FormActions
            onCancel={onClose}
            cancelLabel={t('form.cancel')}
            submitLabel={t('dak.mark.submit')}
            pending={mark.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/** The close body: a blank file number or reply reference is left out. */
const closeInput = (values: { disposal: string; fileNo: string; replyRef: string }) => ({
  disposal: values.disposal,
  fileNo: values.fileNo || undefined,
  replyRef: values.replyRef || undefined,
});

/** Close a held letter with its disposal: action taken, file number, reply reference (decision 020). */
export function CloseLetterDialog({ letter, onClose }: { letter: LetterJson; onClose: () => void }) {
  const { t } = useTranslation('letters');
  const close = useCloseLetter();
  const { field, banner, onError, onSubmit } = useDakForm(
    { disposal: '', fileNo: '', replyRef: '' },
    closeLetterInput,
    closeInput,
  );
  const submit = onSubmit((values) =>
    close.mutate(
      { id: letter._id, input: closeInput(values) },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t('dak.close.done', { letterId: letter.letterId }) });
          onClose();
        },
        onError,
      },
    ),
  );
  return (
    <Modal opened onClose={onClose} title={t('dak.close.title', { letterId: letter.letterId })} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="gray.8">
            {letter.letterSub}
          </Text>
          {banner && <PanelError>{banner}</PanelError>}
          <Textarea
            label={t('dak.close.disposal')}
            description={t('dak.close.disposalHint')}
            {...field('disposal')}
            autosize
            minRows={3}
            required
          />
          <Group grow align="flex-start">
            <TextInput label={t('dak.close.fileNo')} {...field('fileNo')} />
            <TextInput label={t('dak.close.replyRef')} {...field('replyRef')} />
          </Group>
          <FormActions
            onCancel={onClose}
            cancelLabel={t('form.cancel')}
            submitLabel={t('dak.close.submit')}
            pending={close.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/** Send a held letter back to whoever marked it, saying why (decision 020). */
export function ReturnLetterDialog({
  letter,
  to,
  onClose,
}: {
  letter: LetterJson;
  to: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('letters');
  const sendBack = useReturnLetter();
  const { field, banner, onError, onSubmit } = useDakForm({ remarks: '' }, returnLetterInput);
  const submit = onSubmit((input) =>
    sendBack.mutate(
      { id: letter._id, input },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t('dak.return.done', { letterId: letter.letterId }) });
          onClose();
        },
        onError,
      },
    ),
  );
  return (
    <Modal opened onClose={onClose} title={t('dak.return.title', { letterId: letter.letterId })} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="gray.8">
            {to ? t('dak.return.to', { name: to }) : letter.letterSub}
          </Text>
          {banner && <PanelError>{banner}</PanelError>}
          <Textarea label={t('dak.return.remarks')} {...field('remarks')} autosize minRows={3} required />
          <FormActions
            onCancel={onClose}
            cancelLabel={t('form.cancel')}
            submitLabel={t('dak.return.submit')}
            pending={sendBack.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
