import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  Progress,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { acceptFor, DOCUMENT_CLASSIFICATIONS, FILE_TYPES } from '#shared/constants.ts';
import {
  CLOSE_GROUP_MESSAGES,
  type CloseGroupDocumentJson,
  type CloseGroupJson,
  type DocumentClassification,
} from '#shared/schemas/close-group.ts';

import { ConfirmDelete, useConfirmedDelete } from '#web/components/confirm-delete.tsx';
import { ViewDocument } from '#web/components/document-viewer/view-document.tsx';
import { FilePicker } from '#web/components/file-picker.tsx';
import { useInPlaceCombobox } from '#web/components/in-place-combobox.ts';
import { translateMessage } from '#web/i18n/index.ts';
import { requiredFile } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useDeleteCloseGroupDocument, useUploadCloseGroupDocument } from '../api.ts';
import { type TimedMessage, useTimedMessage } from '../use-timed-message.ts';
import { ClassifyDocumentModal, reasonOf, RenameDocumentModal } from './close-group-document-modals.tsx';

/**
 * The document's name, opening it in a new tab (the server lets only members and admins read it), and "View". No
 * thumbnail: every close-group document's reads are recorded, and recorded material has none (decisions 070, 084).
 */
function DocumentLink({ document }: { document: CloseGroupDocumentJson }) {
  const { t } = useTranslation('common');
  return (
    <>
      <Anchor
        href={document.url}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`${document.filename}${t('opensInNewTab')}`}
        style={{ wordBreak: 'break-word' }}
      >
        {document.filename}
      </Anchor>
      <ViewDocument fileUrl={document.url} name={document.filename} fileName={document.filename} />
    </>
  );
}

const BADGE_COLORS: Record<DocumentClassification, string> = {
  Unclassified: 'gray.7',
  Restricted: 'indigo.9',
  Confidential: '#9a3412',
  Secret: 'red.9',
};

/** A document's classification marking (decision 072); an Unclassified document carries none. */
function ClassificationBadge({ classification }: { classification: DocumentClassification }) {
  const { t } = useTranslation('close-groups');
  if (classification === 'Unclassified') return null;
  return (
    // Never shrunk or cut: the marking must be read in full, as a letter's is.
    <Badge
      color={BADGE_COLORS[classification]}
      variant="filled"
      radius="sm"
      style={{ flexShrink: 0, overflow: 'visible' }}
    >
      {t(`mine.classes.${classification}`)}
    </Badge>
  );
}

/** The document's name with its classification marking. */
function DocumentTitle({ document }: { document: CloseGroupDocumentJson }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <DocumentLink document={document} />
      <ClassificationBadge classification={document.classification} />
    </Group>
  );
}

function StatusMessage({ message }: { message: TimedMessage | null }) {
  // Both live regions stay in the page so screen readers announce each new message.
  return (
    <div>
      <div role="status">
        {message?.kind === 'success' && (
          <Alert color="green" variant="light">
            <Text c="gray.9">{message.text}</Text>
          </Alert>
        )}
      </div>
      <div role="alert">
        {message?.kind === 'error' && (
          <Alert color="red" variant="light">
            <Text c="gray.9">{message.text}</Text>
          </Alert>
        )}
      </div>
    </div>
  );
}

function UploadDocumentForm({
  group,
  onMessage,
}: {
  group: CloseGroupJson;
  onMessage: ReturnType<typeof useTimedMessage>[1];
}) {
  const { t } = useTranslation('close-groups');
  const upload = useUploadCloseGroupDocument();
  const [progress, setProgress] = useState<number | null>(null);
  const classificationList = useInPlaceCombobox(); // the open list stays in the page's landmarks (axe region)
  // The chosen file lives in the form; its rule's message goes to the screen's message line, not under the input.
  const form = useForm<{ file: File | null; classification: DocumentClassification }>({
    mode: 'controlled',
    initialValues: { file: null, classification: 'Unclassified' },
    validate: { file: requiredFile(CLOSE_GROUP_MESSAGES.fileRequired) },
  });

  const submit = form.onSubmit(
    ({ file, classification }) => {
      setProgress(0);
      upload.mutate(
        { groupId: group._id, file: file!, classification, onProgress: setProgress },
        {
          onSuccess: () => {
            onMessage('success', t('mine.uploaded'));
            form.reset();
          },
          onError: (err) => onMessage('error', t('mine.uploadFailed', { reason: reasonOf(err, t) })),
          onSettled: () => setProgress(null),
        },
      );
    },
    (errors) => onMessage('error', translateMessage(String(errors.file))),
  );

  return (
    <form onSubmit={submit} noValidate aria-label={t('mine.uploadTitle')}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <FilePicker
          label={t('mine.document')}
          description={t('mine.allowedTypes', { types: FILE_TYPES.document.join(', ') })}
          placeholder={t('mine.choose')}
          accept={acceptFor('document')}
          value={form.values.file}
          onChange={(file) => form.setFieldValue('file', file)}
          style={{ flex: '1 1 260px' }}
        />
        <Select
          label={t('mine.classification')}
          data={DOCUMENT_CLASSIFICATIONS.map((value) => ({ value, label: t(`mine.classes.${value}`) }))}
          value={form.values.classification}
          onChange={(value) => value && form.setFieldValue('classification', value as DocumentClassification)}
          allowDeselect={false}
          style={{ flex: '0 1 200px' }}
          {...classificationList}
        />
        <Button type="submit" loading={upload.isPending}>
          {t('mine.upload')}
        </Button>
      </Group>
      <Text size="xs" c="gray.8" mt={4}>
        {t('mine.classificationHint')}
      </Text>
      {progress !== null && (
        <Progress mt="xs" value={progress} animated aria-label={t('mine.uploadProgress', { percent: progress })} />
      )}
    </form>
  );
}

/**
 * One close group's documents (spec §2 My Group Documents): file name, uploaded by, uploaded at; upload, rename and
 * delete, each followed by a message that stays 5 seconds; a read-only notice outside the group's duration.
 */
export function CloseGroupDocuments({ group }: { group: CloseGroupJson }) {
  const { formatDate, formatDateTime } = useFormatDate();
  const { t } = useTranslation('close-groups');
  const [message, showMessage] = useTimedMessage();
  const [renaming, setRenaming] = useState<CloseGroupDocumentJson | null>(null);
  const [classifying, setClassifying] = useState<CloseGroupDocumentJson | null>(null);
  const remove = useDeleteCloseGroupDocument();
  const deletion = useConfirmedDelete<CloseGroupDocumentJson, { groupId: string; docId: string }>(remove, {
    variables: (doc) => ({ groupId: group._id, docId: doc._id }),
    deleted: () => showMessage('success', t('mine.deleted')),
    failed: (err) => showMessage('error', t('mine.deleteFailed', { reason: reasonOf(err, t) })),
  });
  const headingId = `close-group-${group._id}-documents`;

  /**
   * Rename, Classification and Delete, for the uploader and admins while the group is open to them (the server decides
   * canChange; classifying follows the same rule, decision 072).
   */
  const actionsFor = (doc: CloseGroupDocumentJson) =>
    doc.canChange && (
      <Group gap="xs" wrap="wrap">
        <Button
          size="xs"
          variant="light"
          onClick={() => setRenaming(doc)}
          aria-label={t('mine.renameLabel', { name: doc.filename })}
        >
          {t('mine.rename')}
        </Button>
        <Button
          size="xs"
          variant="light"
          onClick={() => setClassifying(doc)}
          aria-label={t('mine.classifyLabel', { name: doc.filename })}
        >
          {t('mine.classify')}
        </Button>
        <Button
          size="xs"
          variant="outline"
          color="red.9"
          onClick={() => deletion.ask(doc)}
          aria-label={t('mine.deleteLabel', { name: doc.filename })}
        >
          {t('mine.delete')}
        </Button>
      </Group>
    );

  return (
    <Stack gap="md">
      {!group.canUpload && (
        <Alert
          color="yellow"
          variant="light"
          title={
            <Text component="span" fw={700} c="gray.9" size="sm">
              {t('mine.readOnlyTitle')}
            </Text>
          }
        >
          <Text c="gray.9" size="sm">
            {group.status === 'upcoming'
              ? t('mine.readOnlyUpcoming', { date: formatDate(group.groupDuration.from) })
              : t('mine.readOnlyEnded', { date: formatDate(group.groupDuration.to) })}
          </Text>
        </Alert>
      )}
      <StatusMessage message={message} />
      {group.canUpload && <UploadDocumentForm group={group} onMessage={showMessage} />}

      <section aria-labelledby={headingId}>
        <Title order={3} size="h5" mb="xs" id={headingId}>
          {t('mine.documentsTitle')}
        </Title>
        {group.documents.length === 0 ? (
          <Text c="gray.8">{t('mine.noDocuments')}</Text>
        ) : (
          <>
            {/* A table from the small breakpoint up; a list of cards on a phone, where four columns do not fit. */}
            <Box visibleFrom="sm">
              <Table striped verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('mine.fileName')}</Table.Th>
                    <Table.Th scope="col">{t('mine.uploadedBy')}</Table.Th>
                    <Table.Th scope="col">{t('mine.uploadedAt')}</Table.Th>
                    <Table.Th scope="col">{t('mine.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {group.documents.map((doc) => (
                    <Table.Tr key={doc._id}>
                      <Table.Td>
                        <DocumentTitle document={doc} />
                      </Table.Td>
                      <Table.Td>{doc.uploadedBy?.name || t('mine.unknownUploader')}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(doc.uploadedAt)}</Table.Td>
                      <Table.Td>{actionsFor(doc)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Box>
            <Stack hiddenFrom="sm" gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
              {group.documents.map((doc) => (
                <Paper key={doc._id} component="li" withBorder p="sm" radius="sm">
                  <DocumentTitle document={doc} />
                  <Text size="sm" mt={4}>
                    {t('mine.uploadedBy')}: {doc.uploadedBy?.name || t('mine.unknownUploader')}
                  </Text>
                  <Text size="sm" mb={doc.canChange ? 'xs' : 0}>
                    {t('mine.uploadedAt')}: {formatDateTime(doc.uploadedAt)}
                  </Text>
                  {actionsFor(doc)}
                </Paper>
              ))}
            </Stack>
          </>
        )}
      </section>

      {renaming && (
        <RenameDocumentModal
          group={group}
          document={renaming}
          onClose={() => setRenaming(null)}
          onMessage={showMessage}
        />
      )}
      {classifying && (
        <ClassifyDocumentModal
          group={group}
          document={classifying}
          onClose={() => setClassifying(null)}
          onMessage={showMessage}
        />
      )}
      <ConfirmDelete
        {...deletion.dialog}
        message={t('mine.confirmDelete', { name: deletion.toDelete?.filename ?? '' })}
      />
    </Stack>
  );
}
