import { Anchor, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { acceptFor, FILE_TYPES } from '#shared/constants.ts';
import type { ProfileJson, UserDocumentJson } from '#shared/schemas/user.ts';

import { ConfirmDelete, useConfirmedDelete } from '#web/components/confirm-delete.tsx';
import { FilePicker } from '#web/components/file-picker.tsx';
import { requiredFile } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useRemoveUserDocument, useUploadUserDocument } from '../api.ts';
import { reasonOf, UserModal } from './user-modal.tsx';

/** A user's documents: open, upload and remove them (spec §2 Manage Users). */
export function DocumentsModal({ user, onClose }: { user: ProfileJson; onClose: () => void }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('people');
  const upload = useUploadUserDocument();
  const remove = useRemoveUserDocument();
  const [documents, setDocuments] = useState<UserDocumentJson[]>(user.documents);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');

  // The chosen file lives in the form; a missing one is said in the line below it.
  const form = useForm<{ file: File | null }>({
    mode: 'controlled',
    initialValues: { file: null },
    validate: { file: requiredFile(t('manage.selectFile')) },
  });
  const onUpload = form.onSubmit(
    ({ file }) => {
      setError('');
      setProgress(0);
      upload.mutate(
        { userId: user._id, input: { file: file!, onProgress: setProgress } },
        {
          onSuccess: (doc) => {
            setDocuments((list) => [...list, doc as UserDocumentJson]);
            form.reset();
            notifications.show({ color: 'green', message: t('manage.uploaded') });
          },
          onError: (err) => setError(reasonOf(err, t)),
          onSettled: () => setProgress(null),
        },
      );
    },
    (errors) => setError(String(errors.file)),
  );
  const removal = useConfirmedDelete<UserDocumentJson, { userId: string; input: string }>(remove, {
    variables: (doc) => ({ userId: user._id, input: doc._id }),
    deleted: (doc) => {
      setDocuments((list) => list.filter((d) => d._id !== doc._id));
      notifications.show({ color: 'green', message: t('manage.removed') });
    },
    failed: (err) => notifications.show({ color: 'red', message: reasonOf(err, t) }),
  });

  return (
    <>
      <UserModal
        opened={!removal.dialog.opened}
        onClose={onClose}
        title={t('manage.documentsTitle', { name: user.personalDetails.name })}
        size="lg"
      >
        <Stack gap="md">
          {documents.length ? (
            <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
              {documents.map((doc) => (
                <li key={doc._id}>
                  <Group gap="sm" wrap="nowrap" justify="space-between" align="flex-start">
                    <div style={{ minWidth: 0 }}>
                      <Anchor
                        href={doc.url}
                        target="_blank"
                        rel="noopener noreferrer"
                        style={{ overflowWrap: 'anywhere' }}
                      >
                        {t('profile.opensInNewTab', { name: doc.filename })}
                      </Anchor>
                      <Text size="xs" c="gray.8">
                        {formatDate(doc.uploadedAt)}
                      </Text>
                    </div>
                    <Button
                      size="xs"
                      variant="outline"
                      color="red.9"
                      onClick={() => removal.ask(doc)}
                      aria-label={t('manage.removeDocument', { name: doc.filename })}
                      style={{ flexShrink: 0 }}
                    >
                      {t('manage.remove')}
                    </Button>
                  </Group>
                </li>
              ))}
            </Stack>
          ) : (
            <Text c="gray.8">{t('manage.noDocumentsYet')}</Text>
          )}
          <form onSubmit={onUpload} noValidate>
            <Group align="flex-end" gap="sm">
              <FilePicker
                label={t('manage.document')}
                placeholder={t('manage.chooseFile')}
                description={t('manage.allowedTypes', { types: FILE_TYPES.document.join(', ') })}
                accept={acceptFor('document')}
                value={form.values.file}
                onChange={(file) => form.setFieldValue('file', file)}
                style={{ flex: '1 1 240px' }}
              />
              <Button type="submit" loading={upload.isPending}>
                {t('manage.upload')}
              </Button>
            </Group>
            {progress !== null && (
              <Progress mt="xs" value={progress} aria-label={t('manage.uploadProgress', { percent: progress })} />
            )}
            <div role="alert">
              {error && (
                <Text size="sm" c="red.9" mt="xs">
                  {error}
                </Text>
              )}
            </div>
          </form>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('approval.close')}
            </Button>
          </Group>
        </Stack>
      </UserModal>
      <ConfirmDelete
        {...removal.dialog}
        message={t('manage.confirmRemove', { name: removal.toDelete?.filename ?? '' })}
        title={t('manage.remove')}
        confirmLabel={t('manage.remove')}
      />
    </>
  );
}
