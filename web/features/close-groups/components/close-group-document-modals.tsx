import { Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { DOCUMENT_CLASSIFICATIONS } from '#shared/constants.ts';
import {
  CLOSE_GROUP_MESSAGES,
  type CloseGroupDocumentJson,
  type CloseGroupJson,
  type DocumentClassification,
  renamedFilename,
  type RenameDocumentInput,
  renameDocumentInput,
} from '#shared/schemas/close-group.ts';

import { FormActions } from '#web/components/form-actions.tsx';
import { useInPlaceCombobox } from '#web/components/in-place-combobox.ts';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useClassifyCloseGroupDocument, useRenameCloseGroupDocument } from '../api.ts';
import type { useTimedMessage } from '../use-timed-message.ts';

// The rename and classify dialogs of a close group's documents (close-group-documents.tsx).

type Translate = ReturnType<typeof useTranslation>['t'];

/** spec §8 Documents: the server's message, else 'An unknown error occurred.' */
export const reasonOf = (err: unknown, t: Translate) => serverMessage(err, t('mine.unknownError'));

const extensionOf = (name: string) => (name.lastIndexOf('.') > 0 ? name.slice(name.lastIndexOf('.')) : '');

/** What each dialog is given: the group, the document, how to close, and where to say how it went. */
interface DocumentDialogProps {
  group: CloseGroupJson;
  document: CloseGroupDocumentJson;
  onClose: () => void;
  onMessage: ReturnType<typeof useTimedMessage>[1];
}

const checkRename = zodValidate<RenameDocumentInput>(renameDocumentInput);

export function RenameDocumentModal({ group, document, onClose, onMessage }: DocumentDialogProps) {
  const { t } = useTranslation('close-groups');
  const rename = useRenameCloseGroupDocument();
  const form = useForm<RenameDocumentInput>({
    mode: 'controlled',
    initialValues: { newFilename: document.filename },
    validate: (values) => {
      const errors = checkRename(values);
      if (!errors.newFilename && renamedFilename(document.filename, values.newFilename.trim()) === document.filename) {
        return { newFilename: CLOSE_GROUP_MESSAGES.newFilenameSame };
      }
      return errors;
    },
  });
  const { field } = translatedErrors(form);
  const ext = extensionOf(document.filename);

  const submit = form.onSubmit((values) =>
    rename.mutate(
      { groupId: group._id, docId: document._id, newFilename: values.newFilename.trim() },
      {
        onSuccess: () => {
          onMessage('success', t('mine.renamed'));
          onClose();
        },
        onError: (err) => {
          applyServerError(form, err);
          onMessage('error', t('mine.renameFailed', { reason: reasonOf(err, t) }));
        },
      },
    ),
  );

  return (
    <Modal opened onClose={onClose} title={t('mine.renameTitle')} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('mine.newFilename')}
            description={ext ? t('mine.keepsExtension', { ext }) : undefined}
            required
            data-autofocus
            maxLength={200}
            {...field('newFilename')}
          />
          <FormActions
            onCancel={onClose}
            cancelLabel={t('mine.cancel')}
            submitLabel={t('mine.save')}
            pending={rename.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * A document's classification, changed by its uploader or an admin (decision 072). The same classification again
 * closes the dialog without a request: the server would write nothing.
 */
export function ClassifyDocumentModal({ group, document, onClose, onMessage }: DocumentDialogProps) {
  const { t } = useTranslation('close-groups');
  const classify = useClassifyCloseGroupDocument();
  const classificationList = useInPlaceCombobox();
  const [classification, setClassification] = useState<DocumentClassification>(document.classification);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (classification === document.classification) return onClose();
    classify.mutate(
      { groupId: group._id, docId: document._id, classification },
      {
        onSuccess: () => {
          onMessage(
            'success',
            t('mine.classified', { name: document.filename, classification: t(`mine.classes.${classification}`) }),
          );
          onClose();
        },
        onError: (err) => onMessage('error', t('mine.classifyFailed', { reason: reasonOf(err, t) })),
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={t('mine.classifyTitle', { name: document.filename })} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Select
            label={t('mine.classification')}
            description={t('mine.classificationHint')}
            data={DOCUMENT_CLASSIFICATIONS.map((value) => ({ value, label: t(`mine.classes.${value}`) }))}
            value={classification}
            onChange={(value) => value && setClassification(value as DocumentClassification)}
            allowDeselect={false}
            data-autofocus
            {...classificationList}
          />
          <FormActions
            onCancel={onClose}
            cancelLabel={t('mine.cancel')}
            submitLabel={t('mine.save')}
            pending={classify.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
