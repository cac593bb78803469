import { Checkbox, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { EfileJson } from '#shared/schemas/efile.ts';
import { askChangesInput, type DraftJson, putUpInput } from '#shared/schemas/efile-draft.ts';

import { FormActions } from '#web/components/form-actions.tsx';
import { useInPlaceCombobox } from '#web/components/in-place-combobox.ts';
import { PanelError } from '#web/components/panel-error.tsx';
import { approvesDrafts } from '#web/lib/access.policy.ts';
import { applyServerError, serverMessage, topField, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useEfileOfficers } from '../api.ts';
import { useApprove, useAskChanges, usePutUp } from '../drafts-api.ts';

/** The dialogs of a draft for approval (decision 122): put it up, ask for changes, approve and sign. */

interface DialogProps {
  file: EfileJson;
  draft: DraftJson;
  onClose: () => void;
}

function useDraftForm<V extends Record<string, unknown>>(initialValues: V, schema: Parameters<typeof zodValidate>[0]) {
  const { t } = useTranslation('drafts');
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

/** Put up for approval: the file goes to the chosen approver with remarks. */
export function PutUpDialog({ file, draft, onClose }: DialogProps) {
  const { t } = useTranslation('drafts');
  const putUp = usePutUp();
  const officers = useEfileOfficers(true);
  const toList = useInPlaceCombobox();
  const { field, banner, onError, onSubmit } = useDraftForm({ to: '', remarks: '' }, putUpInput);
  const options = (officers.data ?? [])
    .filter((o) => approvesDrafts(o.role))
    .map((o) => ({
      value: o._id,
      label: [o.name, [o.designation, o.group?.name].filter(Boolean).join(', ')].filter(Boolean).join(' — '),
    }));
  const submit = onSubmit((values) =>
    putUp.mutate(
      { id: file._id, draftId: draft._id, input: values },
      {
        onSuccess: () => {
          const name = options.find((o) => o.value === values.to)?.label.split(' — ')[0] ?? '';
          notifications.show({ color: 'green', message: t('putUp.done', { ref: draft.ref, name }) });
          onClose();
        },
        onError,
      },
    ),
  );
  return (
    <Modal opened onClose={onClose} title={t('putUp.title', { ref: draft.ref })} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('putUp.hint')}</Text>
          {banner && <PanelError>{banner}</PanelError>}
          <Select
            label={t('putUp.to')}
            placeholder={officers.isPending ? t('loading') : t('putUp.toPlaceholder')}
            data={options}
            {...field('to')}
            searchable
            required
            nothingFoundMessage={t('putUp.noOfficer')}
            {...toList}
          />
          <Textarea label={t('putUp.remarks')} {...field('remarks')} autosize minRows={2} />
          <FormActions
            onCancel={onClose}
            cancelLabel={t('cancel')}
            submitLabel={t('putUp.submit')}
            pending={putUp.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/** Ask for changes: the note, and the file goes back to the draft's author. */
export function AskChangesDialog({ file, draft, onClose }: DialogProps) {
  const { t } = useTranslation('drafts');
  const ask = useAskChanges();
  const { field, banner, onError, onSubmit } = useDraftForm({ note: '' }, askChangesInput);
  const submit = onSubmit((values) =>
    ask.mutate(
      { id: file._id, draftId: draft._id, note: values.note },
      {
        onSuccess: () => {
          notifications.show({
            color: 'green',
            message: t('changes.done', { ref: draft.ref, name: draft.author.name }),
          });
          onClose();
        },
        onError,
      },
    ),
  );
  return (
    <Modal opened onClose={onClose} title={t('changes.title', { ref: draft.ref })} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('changes.hint', { name: draft.author.name })}</Text>
          {banner && <PanelError>{banner}</PanelError>}
          <Textarea label={t('changes.note')} {...field('note')} autosize minRows={3} required />
          <FormActions
            onCancel={onClose}
            cancelLabel={t('cancel')}
            submitLabel={t('changes.submit')}
            pending={ask.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/** Approve and sign: the lab seal signs the latest version; optionally the approver's own signature too. */
export function ApproveDialog({ file, draft, onClose }: DialogProps) {
  const { t } = useTranslation('drafts');
  const approve = useApprove();
  const [personal, setPersonal] = useState(false);
  const [error, setError] = useState('');
  const latest = draft.versions[draft.versions.length - 1];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError('');
    approve.mutate(
      { id: file._id, draftId: draft._id, personal },
      {
        onSuccess: (r) => {
          notifications.show({ color: 'green', message: t('approve.done', { ref: draft.ref, item: r.message }) });
          onClose();
        },
        onError: (err) => setError(serverMessage(err, t('failed'))),
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('approve.title', { ref: draft.ref })} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('approve.hint', { version: latest?.version ?? 1, number: file.number })}</Text>
          {error && <PanelError>{error}</PanelError>}
          <Checkbox
            label={t('approve.personal')}
            description={t('approve.personalHint')}
            checked={personal}
            onChange={(e) => setPersonal(e.currentTarget.checked)}
          />
          <FormActions
            onCancel={onClose}
            cancelLabel={t('cancel')}
            submitLabel={t('approve.submit')}
            pending={approve.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
