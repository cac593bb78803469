import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { EfileJson, EfileNoteJson } from '#shared/schemas/efile.ts';
import type { NoteBody } from '#shared/schemas/efile-note.ts';

import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useAddNote, useDiscardNote, useEditNote, useNoteHistory } from '../api.ts';
import { pageAnchor } from '../note-model.ts';
import { NoteStateBadge } from './efile-parts.tsx';
import { NoteEditor } from './note-editor.tsx';
import { NoteView } from './note-view.tsx';

/** The file's pages a note may refer to. */
export const pagesOf = (file: EfileJson) => [...file.notes.map((n) => n.ref), ...file.items.map((i) => i.ref)];

function NoteVersions({ fileId, note }: { fileId: string; note: EfileNoteJson }) {
  const { t } = useTranslation('efiles');
  const { formatDateTime } = useFormatDate();
  const history = useNoteHistory(fileId, note._id, true);
  if (history.isPending) return <Text size="sm">{t('loading')}</Text>;
  if (!history.data?.length) return <Text size="sm">{t('note.noVersions')}</Text>;
  return (
    <Stack gap="xs">
      {history.data.map((v, i) => (
        <Card key={i} withBorder padding="xs" bg="gray.0">
          <Text size="sm" fw={600}>
            {t('note.versionBy', { name: v.editor, when: formatDateTime(v.at) })}
          </Text>
          <NoteView body={v.body} onRef={() => undefined} />
        </Card>
      ))}
    </Stack>
  );
}

function NoteCard({ file, note }: { file: EfileJson; note: EfileNoteJson }) {
  const { t } = useTranslation('efiles');
  const { formatDate } = useFormatDate();
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  const [showVersions, setShowVersions] = useState(false);
  const [error, setError] = useState('');
  const editNote = useEditNote();
  const discard = useDiscardNote();
  const save = (body: NoteBody) =>
    editNote.mutate(
      { id: file._id, noteId: note._id, body },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t('note.saved', { ref: note.ref }) });
          setEditing(false);
        },
        onError: (err) => setError(serverMessage(err, t('failed'))),
      },
    );
  const onDiscard = () =>
    discard.mutate(
      { id: file._id, noteId: note._id },
      {
        onSuccess: () => notifications.show({ color: 'green', message: t('note.discarded', { ref: note.ref }) }),
        onError: (err) => notifications.show({ color: 'red', message: serverMessage(err, t('failed')) }),
      },
    );
  return (
    <Card
      component="article"
      id={pageAnchor(note.ref)}
      tabIndex={-1}
      withBorder
      radius="md"
      padding="md"
      aria-labelledby={headingId}
      bg={note.permanent ? 'green.0' : 'yellow.0'}
      style={{ borderInlineStart: `6px solid var(--mantine-color-${note.permanent ? 'green-8' : 'yellow-5'})` }}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} size="h5" id={headingId}>
            {note.ref}
          </Title>
          <NoteStateBadge permanent={note.permanent} />
        </Group>
        {editing ? (
          <NoteEditor
            initial={note.body}
            pages={pagesOf(file)}
            onSave={save}
            onCancel={() => setEditing(false)}
            pending={editNote.isPending}
            error={error}
          />
        ) : (
          <NoteView body={note.body} />
        )}
        <Text size="sm" fw={600}>
          {note.author.name}
          {note.author.designation ? `, ${note.author.designation}` : ''}
        </Text>
        <Text size="sm" c="gray.8">
          {formatDate(note.createdAt)}
          {note.edited ? ` · ${t('note.edited')}` : ''}
        </Text>
        {!editing && (
          <Group gap="xs">
            {note.canEdit && (
              <>
                <Button size="xs" onClick={() => setEditing(true)} aria-label={t('note.editLabel', { ref: note.ref })}>
                  {t('note.edit')}
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  onClick={onDiscard}
                  loading={discard.isPending}
                  aria-label={t('note.discardLabel', { ref: note.ref })}
                >
                  {t('note.discard')}
                </Button>
              </>
            )}
            {note.edited && (
              <Button
                size="xs"
                variant="subtle"
                onClick={() => setShowVersions((v) => !v)}
                aria-expanded={showVersions}
                aria-label={t('note.versionsLabel', { ref: note.ref })}
              >
                {showVersions ? t('note.hideVersions') : t('note.versions')}
              </Button>
            )}
          </Group>
        )}
        {showVersions && <NoteVersions fileId={file._id} note={note} />}
      </Stack>
    </Card>
  );
}

/** The noting side (decision 107): notes N/1… in order, yellow drafts and green permanent notes, and a new note. */
export function NotingPane({ file }: { file: EfileJson }) {
  const { t } = useTranslation('efiles');
  const [writing, setWriting] = useState(false);
  const [error, setError] = useState('');
  const addNote = useAddNote();
  const headingId = useId();
  const save = (body: NoteBody) =>
    addNote.mutate(
      { id: file._id, body },
      {
        onSuccess: (r) => {
          notifications.show({ color: 'green', message: t('note.added', { ref: r.message }) });
          setWriting(false);
          setError('');
        },
        onError: (err) => setError(serverMessage(err, t('failed'))),
      },
    );
  return (
    <Stack component="section" gap="sm" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        {t('noting.title')}
      </Title>
      {file.notes.length === 0 && <Text c="gray.8">{t('noting.empty')}</Text>}
      {file.notes.map((note) => (
        <NoteCard key={note._id} file={file} note={note} />
      ))}
      {file.can.act &&
        (writing ? (
          <Card withBorder padding="md">
            <Title order={3} size="h5" mb="xs">
              {t('noting.newNote')}
            </Title>
            <NoteEditor
              pages={pagesOf(file)}
              onSave={save}
              onCancel={() => setWriting(false)}
              pending={addNote.isPending}
              error={error}
            />
          </Card>
        ) : (
          <Group>
            <Button onClick={() => setWriting(true)}>{t('noting.write')}</Button>
          </Group>
        ))}
    </Stack>
  );
}
