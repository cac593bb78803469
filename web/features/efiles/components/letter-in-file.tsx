import { Anchor, Button, Modal, Radio, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { MAX_PAGE_SIZE } from '#shared/constants.ts';

import { FormActions } from '#web/components/form-actions.tsx';
import { useInPlaceCombobox } from '#web/components/in-place-combobox.ts';
import { PanelError } from '#web/components/panel-error.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';
import { paths } from '#web/lib/paths.ts';

import { useEfileBox, useFileOfLetter, usePutLetter } from '../api.ts';
import { NewFileDialog } from './new-file-dialog.tsx';

export interface LetterRef {
  _id: string;
  letterId: string;
  letterSub: string;
}

function PutInFileDialog({ letter, onClose }: { letter: LetterRef; onClose: () => void }) {
  const { t } = useTranslation('efiles');
  const [where, setWhere] = useState<'new' | 'existing'>('new');
  const [fileId, setFileId] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState('');
  const withMe = useEfileBox('with_me', MAX_PAGE_SIZE);
  const put = usePutLetter();
  const fileList = useInPlaceCombobox();
  if (creating)
    return (
      <NewFileDialog
        letter={{ _id: letter._id, letterId: letter.letterId, subject: letter.letterSub }}
        onClose={onClose}
      />
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (where === 'new') {
      setCreating(true);
      return;
    }
    if (!fileId) {
      setError(t('putIn.chooseFile'));
      return;
    }
    put.mutate(
      { id: fileId, letterId: letter._id },
      {
        onSuccess: (r) => {
          notifications.show({
            color: 'green',
            message: t('putIn.done', { letterId: letter.letterId, ref: r.message }),
          });
          onClose();
        },
        onError: (err) => setError(serverMessage(err, t('failed'))),
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('putIn.title', { letterId: letter.letterId })} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {error && <PanelError>{error}</PanelError>}
          <Radio.Group label={t('putIn.where')} value={where} onChange={(v) => setWhere(v as 'new' | 'existing')}>
            <Stack gap="xs" mt="xs">
              <Radio value="new" label={t('putIn.new')} />
              <Radio value="existing" label={t('putIn.existing')} />
            </Stack>
          </Radio.Group>
          {where === 'existing' && (
            <Select
              label={t('putIn.file')}
              placeholder={withMe.isPending ? t('loading') : t('putIn.filePlaceholder')}
              data={(withMe.data?.pages.flatMap((p) => p.files) ?? []).map((f) => ({
                value: f._id,
                label: `${f.number} — ${f.subject}`,
              }))}
              value={fileId}
              onChange={setFileId}
              searchable
              nothingFoundMessage={t('putIn.noFile')}
              {...fileList}
            />
          )}
          <FormActions
            onCancel={onClose}
            cancelLabel={t('form.cancel')}
            submitLabel={where === 'new' ? t('putIn.next') : t('putIn.submit')}
            pending={put.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * On a letter (the inbox, the register): "in file <number>" when it is in a file the reader may see, else
 * "Put in a file" — into a new file opened from it (the letter becomes C/1) or into a file with the reader.
 */
export function LetterInFile({ letter }: { letter: LetterRef }) {
  const { t } = useTranslation('efiles');
  const [open, setOpen] = useState(false);
  const inFile = useFileOfLetter(letter._id);
  if (inFile.isPending) return null;
  const efile = inFile.data?.efile;
  if (efile)
    return (
      <Text size="sm" fw={600}>
        {t('putIn.inFile')}{' '}
        <Anchor component={Link} to={paths.efile.to(efile._id)} inherit>
          {efile.number}
        </Anchor>
      </Text>
    );
  return (
    <>
      <Button
        variant="default"
        onClick={() => setOpen(true)}
        aria-label={t('putIn.label', { letterId: letter.letterId })}
      >
        {t('putIn.button')}
      </Button>
      {open && <PutInFileDialog letter={letter} onClose={() => setOpen(false)} />}
    </>
  );
}
