import { Alert, Button, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';

import { type CreateLabInput, createLabInput, type LabSummaryJson } from '#shared/schemas/lab.ts';

import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useCreateLab } from '../api.ts';

/**
 * Add New Lab Information (spec §2): name, mission, vision, about and domain; the name is required ('Lab name is
 * required'). There is only one lab: the server refuses a second and its sentence is shown.
 */
export function AddLabForm({ onCreated }: { onCreated: (lab: LabSummaryJson) => void }) {
  const { t } = useTranslation('lab');
  const createLab = useCreateLab();
  const form = useForm<CreateLabInput>({
    mode: 'controlled',
    initialValues: { name: '', mission: '', vision: '', about: '', domain: '' },
    validate: zodValidate(createLabInput),
  });
  const { error } = translatedErrors(form);
  const failure = createLab.error ? serverMessage(createLab.error, t('addLab.failed')) : null;

  const onSubmit = (values: CreateLabInput) =>
    createLab.mutate(values, {
      onSuccess: (lab) => {
        notifications.show({ color: 'green', message: t('addLab.created') });
        form.reset();
        onCreated(lab);
      },
      onError: (err) => {
        applyServerError(form, err);
      },
    });

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack gap="sm" maw={760}>
        <TextInput label={t('fields.labName')} required {...form.getInputProps('name')} error={error('name')} />
        <Textarea label={t('fields.mission')} autosize minRows={3} {...form.getInputProps('mission')} />
        <Textarea label={t('fields.vision')} autosize minRows={3} {...form.getInputProps('vision')} />
        <Textarea label={t('fields.about')} autosize minRows={5} {...form.getInputProps('about')} />
        <TextInput label={t('fields.domain')} {...form.getInputProps('domain')} />
        {failure && (
          <Alert color="red" variant="light" role="alert">
            <Text c="gray.9">{failure}</Text>
          </Alert>
        )}
        <div>
          <Button type="submit" loading={createLab.isPending}>
            {t('addLab.submit')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
