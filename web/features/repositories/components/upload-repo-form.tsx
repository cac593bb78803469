import { Button, Card, Group, Stack } from '@mantine/core';
import { type FormErrors, type GetInputPropsReturnType, useForm } from '@mantine/form';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { acceptFor } from '#shared/constants.ts';

import { FilePicker } from '#web/components/file-picker.tsx';
import { translateMessage } from '#web/i18n/index.ts';

import {
  type Banner,
  ChosenFile,
  type GroupOptions,
  GroupSelect,
  UploadStatus,
  useUploadFailure,
} from './repository-parts.tsx';

/** The group a form starts with: the person's own group when it is offered, else the only group offered, else none. */
export const defaultUploadGroup = (offered: { _id: string }[] | undefined, own: string | undefined) =>
  offered?.find((g) => g._id === own)?._id ?? (offered?.length === 1 ? offered[0]!._id : '');

/** What both upload forms have: the group and the file. */
interface RepoFormValues {
  group: string;
  file: File | null;
}

/** The upload mutation of either kind (api.ts useUpload). */
interface RepoUpload {
  mutate: (
    variables: { form: FormData; onProgress: (percent: number) => void },
    options: { onSuccess: () => void; onError: (err: unknown) => void; onSettled: () => void },
  ) => void;
  isPending: boolean;
}

/** What the upload card needs of the form's state. */
export interface RepoUploadState {
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  group: string;
  setGroup: (group: string) => void;
  file: File | null;
  banner: Banner;
  progress: number | null;
  isPending: boolean;
}

/**
 * The form state of an upload screen (spec §2): checks the values with `validate` (the shared schema through
 * zodValidate), marks every field that failed and shows the first message in the banner while it stands, else sends `toFormData`'s
 * body with progress; on success shows `successText` and empties the form, on failure 'Upload failed: …' (spec §8).
 */
export function useRepoUploadForm<V extends RepoFormValues>({
  initialValues,
  validate,
  toFormData,
  upload,
  successText,
}: {
  initialValues: V;
  validate: (values: V) => FormErrors;
  toFormData: (values: V) => FormData;
  upload: RepoUpload;
  successText: string;
}) {
  const uploadFailed = useUploadFailure();
  const [banner, setBanner] = useState<Banner>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const form = useForm<V>({ mode: 'controlled', initialValues, validate });
  const invalid = (field: keyof V) => Boolean(form.errors[String(field)]);

  const onSubmit = form.onSubmit(
    (values) => {
      setBanner(null);
      setProgress(0);
      upload.mutate(
        { form: toFormData(values), onProgress: setProgress },
        {
          onSuccess: () => {
            setBanner({ kind: 'success', text: successText });
            form.reset();
          },
          onError: (err) => setBanner({ kind: 'error', text: uploadFailed(err) }),
          onSettled: () => setProgress(null),
        },
      );
    },
    // The inputs are marked red (the banner below says the first problem); an earlier result goes.
    () => setBanner(null),
  );
  // The first problem of the last check, for as long as it stands: choosing the missing group and type takes it away.
  const firstProblem = Object.values(form.errors).find(Boolean);

  const state: RepoUploadState = {
    onSubmit,
    group: form.values.group,
    // NOTE: Mantine cannot resolve a path's type on a generic form; V extends RepoFormValues, so group is a string.
    setGroup: (group) => form.setFieldValue('group', group as never),
    file: form.values.file,
    banner: firstProblem ? { kind: 'error', text: translateMessage(String(firstProblem)) } : banner,
    progress,
    isPending: upload.isPending,
  };
  return { form, invalid, state };
}

/**
 * The frame of both upload screens: the Group select first, the form's own fields, then the chosen file's name, the
 * progress bar and banner, and Submit.
 */
export function RepoUploadCard({
  state,
  groups,
  groupInvalid,
  listLink,
  children,
}: {
  state: RepoUploadState;
  groups: GroupOptions;
  groupInvalid: boolean;
  /** Shown with the success banner: the list the new repository appears in. */
  listLink: { to: string; label: string };
  children: ReactNode;
}) {
  const { t } = useTranslation('repositories');
  return (
    <Card withBorder radius="md" padding="lg" maw={720}>
      <form onSubmit={state.onSubmit} noValidate>
        <Stack gap="md">
          <GroupSelect options={groups} value={state.group} onChange={state.setGroup} invalid={groupInvalid} />
          {children}
          <ChosenFile file={state.file} />
          <UploadStatus banner={state.banner} progress={state.progress} listLink={listLink} />
          <Group>
            <Button type="submit" disabled={state.isPending}>
              {state.isPending ? t('form.submitting') : t('form.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** The File input of an upload form, listing the kind's file types (shared/constants.ts FILE_TYPES). */
export function RepoFileInput({
  kind,
  hintKey,
  required,
  inputProps,
  invalid,
}: {
  kind: 'softwareRepo' | 'trialRepo';
  hintKey: 'form.softwareFileHint' | 'form.trialFileHint';
  required?: boolean;
  inputProps: GetInputPropsReturnType;
  invalid: boolean;
}) {
  const { t } = useTranslation('repositories');
  return (
    <FilePicker
      label={t('form.file')}
      description={t(hintKey, { types: acceptFor(kind).replace(/,/g, ', ') })}
      placeholder={t('form.chooseFile')}
      accept={acceptFor(kind)}
      required={required}
      {...inputProps}
      error={invalid || undefined}
    />
  );
}
