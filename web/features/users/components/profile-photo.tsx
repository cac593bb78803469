import { Avatar, Button, FileButton, Group, Progress, Stack, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { acceptFor, FILE_TYPES } from '#shared/constants.ts';

import { serverMessage } from '#web/lib/form-errors.ts';

import { useUploadPhoto } from '../api.ts';
import classes from './profile-photo.module.css';

/** Titles written before a name, which are not the person's initials ("Dr. Kavita Rao" is KR, not DK). */
const TITLE = /^(dr|prof|shri|smt|sri|mr|mrs|ms|miss|col|lt|maj|capt|cdr|er)\.?$/i;

/** Two letters of a name, for a person without a photo (never a made-up picture); a title before it is skipped. */
export const initialsOf = (name: string) => {
  const words = name.split(/\s+/).filter(Boolean);
  const named = words.filter((word) => !TITLE.test(word));
  return (named.length ? named : words)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
};

/**
 * The profile photo (spec §2 My profile dashboard): hovering shows 'Change Photo'; choosing a file previews it and
 * only then shows the 'Upload' button; no file gives 'Please select a photo first.' (spec §5). Image types only.
 */
export function ProfilePhoto({ userId, name, photo }: { userId: string; name: string; photo: string | null }) {
  const { t } = useTranslation('people');
  const upload = useUploadPhoto(userId);
  const [file, setFile] = useState<File | null>(null);
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');

  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const onUpload = () => {
    if (!file) return setError(t('profile.selectPhotoFirst'));
    setError('');
    setProgress(0);
    upload.mutate(
      { file, onProgress: setProgress },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t('profile.photoUploaded') });
          setFile(null);
        },
        onError: (err) => {
          const reason = serverMessage(err);
          const message = reason ? t('profile.uploadFailed', { reason }) : t('profile.uploadError');
          setError(message);
          notifications.show({ color: 'red', message });
        },
        onSettled: () => setProgress(null),
      },
    );
  };

  return (
    <Stack gap="xs" align="center" w={160}>
      <FileButton onChange={setFile} accept={acceptFor('image')}>
        {(props) => (
          <UnstyledButton {...props} className={classes.photoButton} aria-label={t('profile.changePhoto')}>
            <Avatar src={preview ?? photo} alt={t('profile.photoOf', { name })} size={140} radius={140} color="navy">
              {initialsOf(name)}
            </Avatar>
            <span className={classes.changeLabel} aria-hidden="true">
              {t('profile.changePhoto')}
            </span>
          </UnstyledButton>
        )}
      </FileButton>
      {file && (
        <>
          <Text size="xs" c="gray.8" ta="center" style={{ wordBreak: 'break-all' }}>
            {t('profile.chosenPhoto', { name: file.name })}
          </Text>
          <Group gap="xs" justify="center">
            <Button size="xs" onClick={onUpload} loading={upload.isPending}>
              {t('profile.upload')}
            </Button>
            <Button size="xs" variant="default" onClick={() => setFile(null)} disabled={upload.isPending}>
              {t('profile.cancel')}
            </Button>
          </Group>
        </>
      )}
      {progress !== null && (
        <Progress w="100%" value={progress} aria-label={t('profile.uploadProgress', { percent: progress })} />
      )}
      <Text size="xs" c="gray.8" ta="center">
        {t('profile.photoTypes', { types: FILE_TYPES.image.join(', ') })}
      </Text>
      <div role="alert">
        {error && (
          <Text size="sm" c="red.9" ta="center">
            {error}
          </Text>
        )}
      </div>
    </Stack>
  );
}
