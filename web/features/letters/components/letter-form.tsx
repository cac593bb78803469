import { Button, Card, Group, NativeSelect, Progress, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { acceptFor, FILE_TYPES, LETTER_CLASSIFICATIONS } from '#shared/constants.ts';
import { toDateInput } from '#shared/format.ts';
import {
  createLetterInput,
  LETTER_FIELDS,
  type LetterClassification,
  type LetterField,
  type LetterJson,
} from '#shared/schemas/letter.ts';

import { DateField } from '#web/components/date-field.tsx';
import { FilePicker } from '#web/components/file-picker.tsx';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useUpdateLetter, useUploadLetter } from '../api.ts';
import { LetterHistory } from './letter-history.tsx';

/** The form's values: the letter's fields and the chosen file (required on upload, a replacement on edit). */
type Values = Record<LetterField, string> & { classification: LetterClassification; file: File | null };

const EMPTY: Values = {
  letterLanguage: '',
  letterCommunBy: '',
  docketDate: '',
  letterDate: '',
  letterNo: '',
  category: '',
  establishment: '',
  letterSub: '',
  docketNo: '',
  classification: 'Normal',
  file: null,
};

/** A loaded letter in the form: dates cut to YYYY-MM-DD, the file left empty (spec §4 Letters Manager). */
const valuesOf = (letter: LetterJson): Values =>
  ({
    ...Object.fromEntries(LETTER_FIELDS.map((field) => [field, letter[field]])),
    docketDate: toDateInput(letter.docketDate),
    letterDate: toDateInput(letter.letterDate),
    classification: letter.classification,
    file: null,
  }) as Values;

const DATE_FIELDS: readonly LetterField[] = ['docketDate', 'letterDate'];

/** What the Letters Manager's yellow banner says (spec §8 Letters), with the server's reason when it gave one. */
export interface LetterStatus {
  text: string;
  detail?: string;
}

export interface LetterFormProps {
  /** The letter being edited; null means upload mode. Give the form `key={letter?._id}` so it starts afresh. */
  letter: LetterJson | null;
  onStatus: (status: LetterStatus) => void;
  /** After a successful upload or save, and on Cancel: back to upload mode. */
  onDone: () => void;
}

/** 'Upload New Letter' or 'Edit Letter' (spec §2 Letters Manager): the nine fields, the classification and the file. */
export function LetterForm({ letter, onStatus, onDone }: LetterFormProps) {
  const { t } = useTranslation('letters');
  const upload = useUploadLetter();
  const update = useUpdateLetter();
  const [progress, setProgress] = useState<number | null>(null);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: letter ? valuesOf(letter) : EMPTY,
    validate: zodValidate(createLetterInput),
  });
  const { field: inputProps } = translatedErrors(form);
  const busy = upload.isPending || update.isPending;

  const onSubmit = form.onSubmit(({ file, ...values }) => {
    if (!letter) {
      // The file is checked after the fields, as the server does: its banner names what is missing (spec §8).
      if (!file) {
        const text = t('banner.selectFile');
        form.setFieldError('file', text);
        return onStatus({ text });
      }
      const data = new FormData();
      for (const [name, value] of Object.entries(values)) data.set(name, value);
      data.set('file', file);
      setProgress(0);
      upload.mutate(
        { form: data, onProgress: setProgress },
        {
          onSuccess: () => {
            onStatus({ text: t('banner.uploaded') });
            onDone();
          },
          onError: (err) => {
            applyServerError(form, err);
            onStatus({ text: t('banner.uploadFailed'), detail: serverMessage(err) });
          },
          onSettled: () => setProgress(null),
        },
      );
      return;
    }
    if (file) setProgress(0);
    update.mutate(
      { id: letter._id, input: values, file, onProgress: setProgress },
      {
        onSuccess: () => {
          onStatus({ text: t('banner.updated') });
          onDone();
        },
        onError: (err) => {
          applyServerError(form, err);
          onStatus({ text: t('banner.updateFailed'), detail: serverMessage(err) });
        },
        onSettled: () => setProgress(null),
      },
    );
  });

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="letter-form-heading">
      <Title order={2} size="h3" mb="md" id="letter-form-heading">
        {letter ? t('form.editTitle') : t('form.newTitle')}
      </Title>
      {letter && (
        <Text size="sm" c="gray.8" mb="sm">
          {t('form.editing', { letterId: letter.letterId })}
        </Text>
      )}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {LETTER_FIELDS.map((field) =>
              DATE_FIELDS.includes(field) ? (
                <DateField
                  key={field}
                  label={t(`fields.${field}`)}
                  required
                  clearButtonProps={{ 'aria-label': t('form.clearDate', { field: t(`fields.${field}`) }) }}
                  {...inputProps(field)}
                />
              ) : (
                <TextInput key={field} label={t(`fields.${field}`)} required {...inputProps(field)} />
              ),
            )}
            <NativeSelect
              label={t('fields.classification')}
              description={t('form.classificationHint')}
              data={LETTER_CLASSIFICATIONS.map((value) => ({ value, label: t(`classification.${value}`) }))}
              {...form.getInputProps('classification')}
            />
            <FilePicker
              label={letter ? t('form.replaceFile') : t('form.file')}
              description={
                letter
                  ? t('form.replaceHint', { name: letter.originalName ?? t('na') })
                  : t('form.fileTypes', { types: FILE_TYPES.letter.join(', ') })
              }
              accept={acceptFor('letter')}
              required={!letter}
              {...inputProps('file')}
            />
          </SimpleGrid>
          {progress !== null && (
            <Stack gap={4}>
              <Progress value={progress} aria-label={t('form.progress', { percent: progress })} animated />
              <Text size="sm" c="gray.8" aria-hidden="true">
                {t('form.progress', { percent: progress })}
              </Text>
            </Stack>
          )}
          <Group>
            <Button type="submit" loading={busy}>
              {letter ? t('form.save') : t('form.upload')}
            </Button>
            {letter && (
              <Button variant="default" onClick={onDone} disabled={busy}>
                {t('form.cancel')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
      {letter && (
        <Stack gap="xs" mt="lg">
          <Title order={3} size="h4">
            {t('history.title')}
          </Title>
          <LetterHistory letterId={letter._id} />
        </Stack>
      )}
    </Card>
  );
}
