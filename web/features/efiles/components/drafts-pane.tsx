import { Button, Card, Group, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { EfileJson } from '#shared/schemas/efile.ts';
import { draftTitle } from '#shared/schemas/efile-draft.ts';
import type { NoteBody } from '#shared/schemas/efile-note.ts';

import { FilePicker } from '#web/components/file-picker.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { translateMessage } from '#web/i18n/index.ts';
import { serverMessage } from '#web/lib/form-errors.ts';

import { useAddDraft, useDrafts, useUploadDraft } from '../drafts-api.ts';
import { DraftCard } from './draft-card.tsx';
import { NoteEditor } from './note-editor.tsx';
import { pagesOf } from './noting-pane.tsx';

/** A new draft: its title, then its text written in the note editor, or a .docx or PDF uploaded. */
function NewDraft({ file, onDone }: { file: EfileJson; onDone: () => void }) {
  const { t } = useTranslation('drafts');
  const [title, setTitle] = useState('');
  const [titleError, setTitleError] = useState('');
  const [how, setHow] = useState<'write' | 'upload'>('write');
  const [doc, setDoc] = useState<File | null>(null);
  const [error, setError] = useState('');
  const add = useAddDraft();
  const upload = useUploadDraft();
  const checkTitle = () => {
    const parsed = draftTitle.safeParse(title);
    setTitleError(parsed.success ? '' : translateMessage(parsed.error.issues[0]?.message ?? ''));
    return parsed.success ? parsed.data : null;
  };
  const done = (r: { ref: string }) => {
    notifications.show({ color: 'green', message: t('new.done', { ref: r.ref }) });
    onDone();
  };
  const fail = (err: unknown) => setError(serverMessage(err, t('failed')));
  const save = (body: NoteBody) => {
    const checked = checkTitle();
    if (checked !== null) add.mutate({ id: file._id, title: checked, body }, { onSuccess: done, onError: fail });
  };
  const send = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkTitle();
    if (checked === null) return;
    if (!doc) return setError(t('new.chooseFile'));
    upload.mutate({ id: file._id, title: checked, file: doc }, { onSuccess: done, onError: fail });
  };
  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('new.title')}
        </Title>
        <TextInput
          label={t('new.titleLabel')}
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={titleError || undefined}
          required
        />
        <SegmentedControl
          value={how}
          onChange={(v) => setHow(v as 'write' | 'upload')}
          data={[
            { value: 'write', label: t('new.write') },
            { value: 'upload', label: t('new.upload') },
          ]}
          aria-label={t('new.how')}
        />
        {how === 'write' ? (
          <NoteEditor pages={pagesOf(file)} onSave={save} onCancel={onDone} pending={add.isPending} error={error} />
        ) : (
          <form onSubmit={send} noValidate>
            <Stack gap="xs">
              {error && <PanelError>{error}</PanelError>}
              <FilePicker label={t('new.file')} accept=".docx,.pdf" value={doc} onChange={setDoc} />
              <Group justify="flex-end">
                <Button variant="default" onClick={onDone}>
                  {t('cancel')}
                </Button>
                <Button type="submit" loading={upload.isPending}>
                  {t('new.uploadButton')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Card>
  );
}

/** Drafts for approval on the file (decision 122): each draft with its versions and actions, and a new draft. */
export function DraftsPane({ file }: { file: EfileJson }) {
  const { t } = useTranslation('drafts');
  const headingId = useId();
  const drafts = useDrafts(file._id);
  const [writing, setWriting] = useState(false);
  return (
    <Stack component="section" gap="sm" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        {t('title')}
      </Title>
      {drafts.isPending && <Text size="sm">{t('loading')}</Text>}
      {drafts.isError && <PanelError>{serverMessage(drafts.error, t('failed'))}</PanelError>}
      {drafts.data?.length === 0 && <Text c="gray.8">{t('empty')}</Text>}
      {drafts.data?.map((draft) => (
        <DraftCard key={draft._id} file={file} draft={draft} />
      ))}
      {file.can.act &&
        (writing ? (
          <NewDraft file={file} onDone={() => setWriting(false)} />
        ) : (
          <Group>
            <Button variant="light" onClick={() => setWriting(true)}>
              {t('new.button')}
            </Button>
          </Group>
        ))}
    </Stack>
  );
}
