import { Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, type MouseEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { EfileItemJson, EfileJson } from '#shared/schemas/efile.ts';

import { DocumentThumbnail, ViewDocument } from '#web/components/document-viewer/view-document.tsx';
import { FilePicker } from '#web/components/file-picker.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { api, needsStepUp } from '#web/lib/api-client.ts';
import { followLink } from '#web/lib/follow-link.ts';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useAddDocument } from '../api.ts';
import { pageAnchor } from '../note-model.ts';
import { ItemDispatch } from './item-dispatch.tsx';

/**
 * A document's download: a plain link with the download cookie (decision 003), which cannot show the step-up dialog.
 * Above Unclassified the file is read through the API first, which asks for the step-up in this page when the server
 * wants one (decision 095), and the link follows (the server watermarks and records it, decision 121).
 */
function DownloadDocument({ file, item, href }: { file: EfileJson; item: EfileItemJson; href: string }) {
  const { t } = useTranslation('efiles');
  const onClick = (event: MouseEvent) => {
    if (file.classification === 'Unclassified') return;
    event.preventDefault();
    api.get(`/api/efiles/${file._id}`).then(
      () => followLink(href, item.title),
      (err: unknown) => {
        if (!needsStepUp(err)) notifications.show({ color: 'red', message: serverMessage(err, t('failed')) });
      },
    );
  };
  return (
    <Anchor href={href} size="sm" download onClick={onClick} aria-label={t('items.downloadLabel', { ref: item.ref })}>
      {t('items.download')}
    </Anchor>
  );
}

function ItemCard({ file, item }: { file: EfileJson; item: EfileItemJson }) {
  const { t } = useTranslation('efiles');
  const { formatDate } = useFormatDate();
  const headingId = useId();
  return (
    <Card
      component="article"
      id={pageAnchor(item.ref)}
      tabIndex={-1}
      withBorder
      radius="md"
      padding="sm"
      aria-labelledby={headingId}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {/* A classified page is never a thumbnail (decision 084). */}
        {item.fileUrl && file.classification === 'Unclassified' && <DocumentThumbnail fileUrl={item.fileUrl} />}
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={3} size="h5" id={headingId} style={{ overflowWrap: 'anywhere' }}>
            {item.ref} — {item.title}
          </Title>
          <Text size="sm" c="gray.8">
            {item.kind === 'letter' && item.letter
              ? t('items.letter', { letterId: item.letter.letterId, when: formatDate(item.addedAt) })
              : t('items.document', { when: formatDate(item.addedAt) })}
          </Text>
          {item.fileUrl && (
            <Group gap="sm">
              <ViewDocument fileUrl={item.fileUrl} name={`${item.ref} ${item.title}`} />
              <DownloadDocument file={file} item={item} href={item.fileUrl} />
            </Group>
          )}
          <ItemDispatch file={file} item={item} />
        </Stack>
      </Group>
    </Card>
  );
}

function UploadDocument({ fileId }: { fileId: string }) {
  const { t } = useTranslation('efiles');
  const [doc, setDoc] = useState<File | null>(null);
  const [error, setError] = useState('');
  const add = useAddDocument();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!doc) {
      setError(t('items.chooseDocument'));
      return;
    }
    add.mutate(
      { id: fileId, file: doc },
      {
        onSuccess: (r) => {
          notifications.show({ color: 'green', message: t('items.added', { ref: r.message }) });
          setDoc(null);
          setError('');
        },
        onError: (err) => setError(serverMessage(err, t('failed'))),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        {error && <PanelError>{error}</PanelError>}
        <FilePicker label={t('items.upload')} value={doc} onChange={setDoc} />
        <Group>
          <Button type="submit" variant="light" loading={add.isPending}>
            {t('items.uploadButton')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The correspondence side (decision 107): items C/1… (letters put in, documents uploaded), each opens in the viewer. */
export function CorrespondencePane({ file }: { file: EfileJson }) {
  const { t } = useTranslation('efiles');
  const headingId = useId();
  return (
    <Stack component="section" gap="sm" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        {t('items.title')}
      </Title>
      {file.items.length === 0 && <Text c="gray.8">{t('items.empty')}</Text>}
      {file.items.map((item) => (
        <ItemCard key={item._id} file={file} item={item} />
      ))}
      {file.can.act && <UploadDocument fileId={file._id} />}
    </Stack>
  );
}
