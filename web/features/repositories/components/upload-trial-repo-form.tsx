import { useState } from 'react';
import { Button, Card, FileInput, Group, NumberInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { acceptFor } from '#shared/constants.ts';
import { translateMessage } from '#web/i18n/index.ts';
import { useUploadTrialRepo } from '../api.ts';
import { trialRepoFormData, type TrialRepoFormValues } from '../form-data.ts';
import {
  ChosenFile,
  GroupSelect,
  UploadStatus,
  useUploadFailure,
  type Banner,
  type GroupOptions,
} from './repository-parts.tsx';

/**
 * Upload Trial Repository (spec §2): group, free-text type, GitHub URL, cloned path, size (KB) and duration (minutes)
 * of 0 or more, languages comma separated, and a required file of the trial types. A progress bar while sending.
 */
export function UploadTrialRepoForm({ groups, defaultGroup }: { groups: GroupOptions; defaultGroup: string }) {
  const { t } = useTranslation('repositories');
  const upload = useUploadTrialRepo();
  const uploadFailed = useUploadFailure();
  const [banner, setBanner] = useState<Banner>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const form = useForm<TrialRepoFormValues>({
    mode: 'controlled',
    initialValues: {
      group: defaultGroup,
      type: '',
      githubUrl: '',
      clonedRepoPath: '',
      sizeInKB: '',
      duration: '',
      languageUsed: '',
      file: null,
    },
  });
  const invalid = (field: keyof TrialRepoFormValues) => Boolean(form.errors[field]);

  const onSubmit = form.onSubmit((values) => {
    const checked = trialRepoFormData(values);
    if (!checked.ok) {
      form.setErrors(Object.fromEntries(checked.fields.map((field) => [field, true])));
      setBanner({ kind: 'error', text: translateMessage(checked.message, 'repositories') });
      return;
    }
    form.clearErrors();
    setBanner(null);
    setProgress(0);
    upload.mutate(
      { form: checked.data, onProgress: setProgress },
      {
        onSuccess: () => {
          setBanner({ kind: 'success', text: t('trial.success') });
          form.reset();
        },
        onError: (err) => setBanner({ kind: 'error', text: uploadFailed(err) }),
        onSettled: () => setProgress(null),
      },
    );
  });

  return (
    <Card withBorder radius="md" padding="lg" maw={720}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <GroupSelect
            options={groups}
            value={form.values.group}
            onChange={(value) => form.setFieldValue('group', value)}
            invalid={invalid('group')}
          />
          <TextInput
            label={t('form.type')}
            placeholder={t('form.trialTypePlaceholder')}
            required
            {...form.getInputProps('type')}
            error={invalid('type') || undefined}
          />
          <TextInput
            type="url"
            label={t('form.githubUrl')}
            placeholder="https://github.com/…"
            {...form.getInputProps('githubUrl')}
            error={invalid('githubUrl') || undefined}
          />
          <TextInput
            label={t('form.clonedRepoPath')}
            {...form.getInputProps('clonedRepoPath')}
            error={invalid('clonedRepoPath') || undefined}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <NumberInput
              label={t('form.sizeInKB')}
              min={0}
              {...form.getInputProps('sizeInKB')}
              error={invalid('sizeInKB') || undefined}
            />
            <NumberInput
              label={t('form.duration')}
              min={0}
              {...form.getInputProps('duration')}
              error={invalid('duration') || undefined}
            />
          </SimpleGrid>
          <TextInput
            label={t('form.languageUsed')}
            placeholder={t('form.languagePlaceholder')}
            {...form.getInputProps('languageUsed')}
            error={invalid('languageUsed') || undefined}
          />
          <FileInput
            label={t('form.file')}
            description={t('form.trialFileHint', { types: acceptFor('trialRepo').replace(/,/g, ', ') })}
            placeholder={t('form.chooseFile')}
            // NOTE: FileInput's placeholder is real text (not an input placeholder), so it must meet 4.5:1 (axe color-contrast).
            styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
            accept={acceptFor('trialRepo')}
            required
            clearable
            {...form.getInputProps('file')}
            error={invalid('file') || undefined}
          />
          <ChosenFile file={form.values.file} />
          <UploadStatus banner={banner} progress={progress} />
          <Group>
            <Button type="submit" disabled={upload.isPending}>
              {upload.isPending ? t('form.submitting') : t('form.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
