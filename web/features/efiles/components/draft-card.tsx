import { Anchor, Badge, Box, Button, Card, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { EfileJson } from '#shared/schemas/efile.ts';
import type { DraftJson, DraftVersionJson } from '#shared/schemas/efile-draft.ts';
import type { NoteBody } from '#shared/schemas/efile-note.ts';

import { FilePicker } from '#web/components/file-picker.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useAddVersion, useDraftDiff, useUploadVersion } from '../drafts-api.ts';
import { ApproveDialog, AskChangesDialog, PutUpDialog } from './draft-dialogs.tsx';
import { NoteEditor } from './note-editor.tsx';
import { NoteView } from './note-view.tsx';
import { pagesOf } from './noting-pane.tsx';

const STATE_COLOURS = { draft: 'gray.8', put_up: 'blue.9', changes_asked: 'red.9', approved: '#1e6b30' } as const;

/** Version n against the one before: words added and removed, marked as such (not by colour alone). */
function VersionDiff({ fileId, draft, version }: { fileId: string; draft: DraftJson; version: number }) {
  const { t } = useTranslation('drafts');
  const diff = useDraftDiff(fileId, draft._id, version, true);
  if (diff.isPending) return <Text size="sm">{t('loading')}</Text>;
  if (diff.isError) return <PanelError>{serverMessage(diff.error, t('failed'))}</PanelError>;
  if (!diff.data.comparable) return <Text size="sm">{t('diff.notComparable')}</Text>;
  return (
    <Box
      p="sm"
      bg="gray.0"
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', borderRadius: 4 }}
      aria-label={t('diff.label', { version, against: diff.data.against ?? 0 })}
      role="region"
    >
      {diff.data.parts.map((p, i) =>
        p.added ? (
          <ins key={i} style={{ background: 'var(--mantine-color-green-1)', textDecoration: 'underline' }}>
            <VisuallyHidden>{t('diff.added')} </VisuallyHidden>
            {p.value}
          </ins>
        ) : p.removed ? (
          <del key={i} style={{ background: 'var(--mantine-color-red-1)' }}>
            <VisuallyHidden>{t('diff.removed')} </VisuallyHidden>
            {p.value}
          </del>
        ) : (
          <span key={i}>{p.value}</span>
        ),
      )}
    </Box>
  );
}

function VersionRow({ file, draft, v }: { file: EfileJson; draft: DraftJson; v: DraftVersionJson }) {
  const { t } = useTranslation('drafts');
  const { formatDateTime } = useFormatDate();
  const [comparing, setComparing] = useState(false);
  const label = `${draft.ref} v${v.version}`;
  return (
    <Card withBorder padding="xs" component="li">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fw={600} size="sm">
            {t('version.line', { version: v.version, name: v.author.name, when: formatDateTime(v.createdAt) })}
          </Text>
          <Group gap="sm">
            <Anchor href={v.pdfUrl} target="_blank" size="sm" aria-label={t('version.pdfLabel', { ref: label })}>
              {t('version.pdf')}
            </Anchor>
            {v.version > 1 && (
              <Button
                size="compact-sm"
                variant="subtle"
                onClick={() => setComparing((c) => !c)}
                aria-expanded={comparing}
                aria-label={t('version.compareLabel', { ref: label, before: v.version - 1 })}
              >
                {comparing ? t('version.hideChanges') : t('version.compare', { before: v.version - 1 })}
              </Button>
            )}
          </Group>
        </Group>
        {v.fileName && <Text size="sm">{t('version.uploaded', { name: v.fileName })}</Text>}
        {comparing && <VersionDiff fileId={file._id} draft={draft} version={v.version} />}
      </Stack>
    </Card>
  );
}

/** A new version: the rich text edited from the latest, or a .docx or PDF uploaded. */
function NewVersion({ file, draft, onDone }: { file: EfileJson; draft: DraftJson; onDone: () => void }) {
  const { t } = useTranslation('drafts');
  const [doc, setDoc] = useState<File | null>(null);
  const [error, setError] = useState('');
  const add = useAddVersion();
  const upload = useUploadVersion();
  const latest = draft.versions[draft.versions.length - 1];
  const done = (r: { version: number }) => {
    notifications.show({ color: 'green', message: t('version.added', { ref: draft.ref, version: r.version }) });
    onDone();
  };
  const save = (body: NoteBody) =>
    add.mutate(
      { id: file._id, draftId: draft._id, body },
      { onSuccess: done, onError: (err) => setError(serverMessage(err, t('failed'))) },
    );
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!doc) return setError(t('new.chooseFile'));
    upload.mutate(
      { id: file._id, draftId: draft._id, file: doc },
      { onSuccess: done, onError: (err) => setError(serverMessage(err, t('failed'))) },
    );
  };
  if (latest?.kind === 'text' && latest.body) {
    return (
      <NoteEditor
        initial={latest.body}
        pages={pagesOf(file)}
        onSave={save}
        onCancel={onDone}
        pending={add.isPending}
        error={error}
      />
    );
  }
  return (
    <form onSubmit={send} noValidate>
      <Stack gap="xs">
        {error && <PanelError>{error}</PanelError>}
        <FilePicker label={t('new.file')} accept=".docx,.pdf" value={doc} onChange={setDoc} />
        <Group>
          <Button variant="default" onClick={onDone}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={upload.isPending}>
            {t('version.upload')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type Dialog = 'putUp' | 'changes' | 'approve' | null;

/** One draft for approval: its state, its versions (each a PDF, each compared with the one before) and its actions. */
export function DraftCard({ file, draft }: { file: EfileJson; draft: DraftJson }) {
  const { t } = useTranslation('drafts');
  const { formatDateTime } = useFormatDate();
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const latest = draft.versions[draft.versions.length - 1];
  const close = () => setDialog(null);
  return (
    <Card component="article" withBorder radius="md" padding="md" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={3} size="h5" id={headingId} style={{ overflowWrap: 'anywhere' }}>
            {draft.ref} — {draft.title}
          </Title>
          <Badge color={STATE_COLOURS[draft.state]} variant="outline" radius="sm" tt="none">
            {t(`state.${draft.state}`)}
          </Badge>
        </Group>
        <Text size="sm">
          {t('by', { name: draft.author.name })}
          {draft.approver && draft.state !== 'draft' ? ` · ${t('putUpTo', { name: draft.approver.name })}` : ''}
        </Text>
        {draft.state === 'changes_asked' && draft.changesNote && (
          <Card withBorder padding="xs" bg="orange.0">
            <Text size="sm" fw={600}>
              {t('changesAsked')}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {draft.changesNote}
            </Text>
          </Card>
        )}
        {draft.state === 'approved' && draft.approvedBy && (
          <Text size="sm" fw={600} c="#1e6b30">
            {t('approvedBy', { name: draft.approvedBy.name, when: formatDateTime(draft.approvedAt ?? '') })}
            {draft.item ? ` · ${t('filedAs', { ref: draft.item.ref })}` : ''}
          </Text>
        )}
        {draft.state === 'approved' && draft.item?.fileUrl && (
          <Anchor href={draft.item.fileUrl} target="_blank" size="sm">
            {t('signedPdf', { ref: draft.item.ref })}
          </Anchor>
        )}
        {latest?.kind === 'text' && latest.body && !editing && <NoteView body={latest.body} onRef={() => undefined} />}
        <Title order={4} size="h6">
          {t('versions')}
        </Title>
        <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
          {[...draft.versions].reverse().map((v) => (
            <VersionRow key={v.version} file={file} draft={draft} v={v} />
          ))}
        </Stack>
        {editing ? (
          <NewVersion file={file} draft={draft} onDone={() => setEditing(false)} />
        ) : (
          <Group gap="xs">
            {draft.can.newVersion && (
              <Button size="xs" variant="light" onClick={() => setEditing(true)}>
                {t('actions.edit')}
              </Button>
            )}
            {draft.can.putUp && (
              <Button size="xs" onClick={() => setDialog('putUp')}>
                {t('actions.putUp')}
              </Button>
            )}
            {draft.can.decide && (
              <>
                <Button size="xs" color="#1e6b30" onClick={() => setDialog('approve')}>
                  {t('actions.approve')}
                </Button>
                <Button size="xs" variant="default" onClick={() => setDialog('changes')}>
                  {t('actions.askChanges')}
                </Button>
              </>
            )}
          </Group>
        )}
      </Stack>
      {dialog === 'putUp' && <PutUpDialog file={file} draft={draft} onClose={close} />}
      {dialog === 'changes' && <AskChangesDialog file={file} draft={draft} onClose={close} />}
      {dialog === 'approve' && <ApproveDialog file={file} draft={draft} onClose={close} />}
    </Card>
  );
}
