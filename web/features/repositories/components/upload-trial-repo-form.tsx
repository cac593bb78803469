import { NumberInput, SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { paths } from '#web/lib/paths.ts';

import { useUploadTrialRepo } from '../api.ts';
import { checkTrialRepo, trialRepoBody, type TrialRepoFormValues } from '../form-data.ts';
import type { GroupOptions } from './repository-parts.tsx';
import { RepoFileInput, RepoUploadCard, useRepoUploadForm } from './upload-repo-form.tsx';

/**
 * Upload Trial Repository (spec §2): group, free-text type, GitHub URL, cloned path, size (KB) and duration (minutes)
 * of 0 or more, languages comma separated, and a required file of the trial types. A progress bar while sending.
 */
export function UploadTrialRepoForm({ groups, defaultGroup }: { groups: GroupOptions; defaultGroup: string }) {
  const { t } = useTranslation('repositories');
  const { form, invalid, state } = useRepoUploadForm<TrialRepoFormValues>({
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
    validate: checkTrialRepo,
    toFormData: trialRepoBody,
    upload: useUploadTrialRepo(),
    successText: t('trial.success'),
  });

  return (
    <RepoUploadCard
      state={state}
      groups={groups}
      groupInvalid={invalid('group')}
      listLink={{ to: paths.viewTrialRepos, label: t('trial.viewList') }}
    >
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
      <RepoFileInput
        kind="trialRepo"
        hintKey="form.trialFileHint"
        required
        inputProps={form.getInputProps('file')}
        invalid={invalid('file')}
      />
    </RepoUploadCard>
  );
}
