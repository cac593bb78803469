import { useState } from 'react';
import { Button, Card, FileInput, Group, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { acceptFor, SOFTWARE_REPO_TYPES } from '#shared/constants.ts';
import { translateMessage } from '#web/i18n/index.ts';
import { useUploadSoftwareRepo } from '../api.ts';
import { softwareRepoFormData, typeKey, type SoftwareRepoFormValues } from '../form-data.ts';
import {
  ChosenFile,
  GroupSelect,
  UploadStatus,
  useUploadFailure,
  type Banner,
  type GroupOptions,
} from './repository-parts.tsx';

/**
 * Upload Software Repository (spec §2): group, type, optional GitHub URL, cloned path, JSON metadata and file; at
 * least one of file, URL or path. Checked by the same schema as the API; a progress bar while the file is sent.
 */
export function UploadSoftwareRepoForm({ groups, defaultGroup }: { groups: GroupOptions; defaultGroup: string }) {
  const { t } = useTranslation('repositories');
  const upload = useUploadSoftwareRepo();
  const uploadFailed = useUploadFailure();
  const [banner, setBanner] = useState<Banner>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const form = useForm<SoftwareRepoFormValues>({
    mode: 'controlled',
    initialValues: { group: defaultGroup, type: '', githubUrl: '', clonedRepoPath: '', metadata: '', file: null },
  });
  const invalid = (field: keyof SoftwareRepoFormValues) => Boolean(form.errors[field]);

  const onSubmit = form.onSubmit((values) => {
    const checked = softwareRepoFormData(values);
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
          setBanner({ kind: 'success', text: t('software.success') });
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
          <Select
            label={t('form.type')}
            placeholder={t('form.typePlaceholder')}
            data={SOFTWARE_REPO_TYPES.map((type) => ({ value: type, label: t(typeKey(type)!) }))}
            required
            {...form.getInputProps('type')}
            onChange={(value) => form.setFieldValue('type', value ?? '')}
            error={invalid('type') || undefined}
          />
          <TextInput
            type="url"
            label={t('form.githubUrl')}
            placeholder="https://github.com/…"
            description={t('form.optional')}
            {...form.getInputProps('githubUrl')}
            error={invalid('githubUrl') || undefined}
          />
          <TextInput
            label={t('form.clonedRepoPath')}
            description={t('form.optional')}
            {...form.getInputProps('clonedRepoPath')}
            error={invalid('clonedRepoPath') || undefined}
          />
          <Textarea
            label={t('form.metadata')}
            description={t('form.metadataHint')}
            placeholder='{"version": "1.0", "language": "Python"}'
            autosize
            minRows={4}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            {...form.getInputProps('metadata')}
            error={invalid('metadata') || undefined}
          />
          <FileInput
            label={t('form.file')}
            description={t('form.softwareFileHint', { types: acceptFor('softwareRepo').replace(/,/g, ', ') })}
            placeholder={t('form.chooseFile')}
            // NOTE: FileInput's placeholder is real text (not an input placeholder), so it must meet 4.5:1 (axe color-contrast).
            styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
            accept={acceptFor('softwareRepo')}
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
