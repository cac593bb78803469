import { Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { DOCUMENT_CLASSIFICATIONS } from '#shared/constants.ts';
import { createEfileInput } from '#shared/schemas/efile.ts';

import { FormActions } from '#web/components/form-actions.tsx';
import { useInPlaceCombobox } from '#web/components/in-place-combobox.ts';
import { PanelError } from '#web/components/panel-error.tsx';
import { applyServerError, serverMessage, topField, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { paths } from '#web/lib/paths.ts';

import { useCreateEfile, useEfileGroups, useEfileHeads } from '../api.ts';

interface Values extends Record<string, unknown> {
  subject: string;
  headId: string;
  classification: (typeof DOCUMENT_CLASSIFICATIONS)[number];
  ownerGroupId: string;
}
const toInput = (v: Values, letterId?: string) => ({
  subject: v.subject,
  headId: v.headId,
  classification: v.classification,
  ownerGroupId: v.ownerGroupId || undefined,
  letterId,
});

/**
 * "New file" (decision 107): a subject (English or Hindi), a head from the admin's list, a classification and the
 * owner group (the creator's own when left). From a letter (`letter`), the letter becomes C/1. Opens the new file.
 */
export function NewFileDialog({
  onClose,
  letter,
}: {
  onClose: () => void;
  letter?: { _id: string; letterId: string; subject: string };
}) {
  const { t } = useTranslation('efiles');
  const navigate = useNavigate();
  const heads = useEfileHeads();
  const groups = useEfileGroups();
  const create = useCreateEfile();
  const [banner, setBanner] = useState('');
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { subject: letter?.subject ?? '', headId: '', classification: 'Unclassified', ownerGroupId: '' },
    validate: zodValidate<Values>(createEfileInput, { toInput: (v) => toInput(v, letter?._id), fold: topField }),
  });
  const { field } = translatedErrors(form);
  const headList = useInPlaceCombobox();
  const classList = useInPlaceCombobox();
  const groupList = useInPlaceCombobox();
  const submit = form.onSubmit((values) => {
    setBanner('');
    create.mutate(toInput(values, letter?._id), {
      onSuccess: (file) => {
        notifications.show({ color: 'green', message: t('create.done', { number: file.number }) });
        onClose();
        void navigate(paths.efile.to(file._id));
      },
      onError: (err) => {
        if (!applyServerError(form, err, { fold: topField })) setBanner(serverMessage(err, t('failed')));
      },
    });
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={letter ? t('create.fromLetterTitle', { letterId: letter.letterId }) : t('create.title')}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {letter && <Text size="sm">{t('create.fromLetterHint', { letterId: letter.letterId })}</Text>}
          {banner && <PanelError>{banner}</PanelError>}
          <TextInput label={t('create.subject')} description={t('create.subjectHint')} {...field('subject')} required />
          <Select
            label={t('create.head')}
            placeholder={heads.isPending ? t('loading') : t('create.headPlaceholder')}
            data={(heads.data ?? [])
              .filter((h) => h.active)
              .map((h) => ({ value: h._id, label: `${h.code} — ${h.name}` }))}
            {...field('headId')}
            searchable
            required
            nothingFoundMessage={t('create.noHead')}
            {...headList}
          />
          <Select
            label={t('create.classification')}
            data={DOCUMENT_CLASSIFICATIONS.map((c) => ({ value: c, label: t(`classification.${c}`) }))}
            {...field('classification')}
            allowDeselect={false}
            {...classList}
          />
          <Select
            label={t('create.ownerGroup')}
            description={t('create.ownerGroupHint')}
            data={(groups.data ?? []).map((g) => ({ value: g._id, label: g.name }))}
            {...field('ownerGroupId')}
            searchable
            clearable
            {...groupList}
          />
          <FormActions
            onCancel={onClose}
            cancelLabel={t('form.cancel')}
            submitLabel={t('create.submit')}
            pending={create.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
