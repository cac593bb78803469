import { Select, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { SOFTWARE_REPO_TYPES } from '#shared/constants.ts';

import { paths } from '#web/lib/paths.ts';

import { useUploadSoftwareRepo } from '../api.ts';
import { checkSoftwareRepo, softwareRepoBody, type SoftwareRepoFormValues, typeKey } from '../form-data.ts';
import type { GroupOptions } from './repository-parts.tsx';
import { RepoFileInput, RepoUploadCard, useRepoUploadForm } from './upload-repo-form.tsx';

/**
 * Upload Software Repository (spec §2): group, type, optional GitHub URL, cloned path, JSON metadata and file; at
 * least one of file, URL or path. Checked by the same schema as the API; a progress bar while the file is sent.
 */
export function UploadSoftwareRepoForm({ groups, defaultGroup }: { groups: GroupOptions; defaultGroup: string }) {
  const { t } = useTranslation('repositories');
  const { form, invalid, state } = useRepoUploadForm<SoftwareRepoFormValues>({
    initialValues: { group: defaultGroup, type: '', githubUrl: '', clonedRepoPath: '', metadata: '', file: null },
    validate: checkSoftwareRepo,
    toFormData: softwareRepoBody,
    upload: useUploadSoftwareRepo(),
    successText: t('software.success'),
  });

  return (
    <RepoUploadCard
      state={state}
      groups={groups}
      groupInvalid={invalid('group')}
      listLink={{ to: paths.viewSoftwareRepos, label: t('software.viewList') }}
    >
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
      <RepoFileInput
        kind="softwareRepo"
        hintKey="form.softwareFileHint"
        inputProps={form.getInputProps('file')}
        invalid={invalid('file')}
      />
    </RepoUploadCard>
  );
}
