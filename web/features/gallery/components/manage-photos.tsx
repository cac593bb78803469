import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { acceptFor } from '#shared/constants.ts';
import { msg } from '#shared/messages/index.ts';
import {
  type PhotoJson,
  type UpdatePhotoInput,
  updatePhotoInput,
  type UploadPhotoInput,
  uploadPhotoInput,
} from '#shared/schemas/gallery.ts';

import { ConfirmDelete, useConfirmedDelete } from '#web/components/confirm-delete.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { FilePicker } from '#web/components/file-picker.tsx';
import { translateCoded, translateMessage } from '#web/i18n/index.ts';
import { serverMessage, zodValidate } from '#web/lib/form-errors.ts';

import { useDeletePhoto, usePhotoPages, useUpdatePhoto, useUploadPhoto } from '../api.ts';
import classes from './gallery.module.css';

/** Photos per page in the manager's grid. */
const MANAGER_PAGE_SIZE = 12;

/** The server's sentence when it sent one (spec §8 Photos: "the server message is preferred"), else ours. */
const serverOr = (err: unknown, fallback: string) => serverMessage(err, fallback);

function UploadPhotoForm({ labId }: { labId: string | undefined }) {
  const { t } = useTranslation('gallery');
  const upload = useUploadPhoto(labId ?? '');
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<UploadPhotoInput & { file: File | null }>({
    mode: 'controlled',
    initialValues: { name: '', description: '', file: null },
    validate: zodValidate(uploadPhotoInput, { fileRequired: msg('gallery.upload_incomplete') }),
  });

  const onSubmit = form.onSubmit(
    ({ file, ...values }) => {
      if (!labId) return setProblem(t('errors.labNotLoaded'));
      setProblem(null);
      const data = new FormData();
      data.set('name', values.name);
      data.set('description', values.description);
      data.set('photo', file!);
      setProgress(0);
      upload.mutate(
        { form: data, onProgress: setProgress },
        {
          onSuccess: () => {
            notifications.show({ color: 'green', message: t('notify.uploaded') });
            form.reset();
          },
          onError: (err) => {
            const message = serverOr(err, t('notify.uploadFailed'));
            notifications.show({ color: 'red', message });
            setProblem(message);
          },
          onSettled: () => setProgress(null),
        },
      );
    },
    // spec §5 Photos: one sentence for every missing field.
    () => setProblem(translateCoded({ code: 'gallery.upload_incomplete' })),
  );
  // One sentence below the form says what is missing; the inputs are only marked.
  const fieldError = (path: string) => (form.errors[path] ? true : undefined);

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="upload-photo-heading">
      <Title order={2} size="h3" mb="md" id="upload-photo-heading">
        {t('upload.title')}
      </Title>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('upload.name')} required {...form.getInputProps('name')} error={fieldError('name')} />
          <Textarea
            label={t('upload.description')}
            required
            autosize
            minRows={2}
            {...form.getInputProps('description')}
            error={fieldError('description')}
          />
          <FilePicker
            label={t('upload.file')}
            accept={acceptFor('image')}
            required
            {...form.getInputProps('file')}
            error={fieldError('file')}
          />
          {problem && (
            <Alert color="red" variant="light" role="alert">
              <Text c="gray.9">{problem}</Text>
            </Alert>
          )}
          {progress !== null && (
            <Progress value={progress} aria-label={t('upload.progress', { percent: progress })} animated />
          )}
          <Group>
            <Button type="submit" loading={upload.isPending}>
              {t('upload.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function PhotoCard({ labId, photo }: { labId: string; photo: PhotoJson }) {
  const { t } = useTranslation('gallery');
  const [editing, setEditing] = useState(false);
  const [broken, setBroken] = useState(false);
  const update = useUpdatePhoto(labId);
  const remove = useDeletePhoto(labId);
  const form = useForm<UpdatePhotoInput>({
    mode: 'controlled',
    initialValues: { name: photo.name, description: photo.description },
    validate: zodValidate(updatePhotoInput),
  });
  const editError = Object.values(form.errors)[0];

  const cancel = () => {
    form.setValues({ name: photo.name, description: photo.description });
    form.clearErrors();
    setEditing(false);
  };
  const save = form.onSubmit((values) =>
    update.mutate(
      { photoId: photo._id, input: values },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t('notify.updated') });
          setEditing(false);
        },
        onError: (err) => notifications.show({ color: 'red', message: serverOr(err, t('notify.updateFailed')) }),
      },
    ),
  );
  const deletion = useConfirmedDelete<PhotoJson>(remove, {
    deleted: () => notifications.show({ color: 'green', message: t('notify.deleted') }),
    failed: (err) => notifications.show({ color: 'red', message: serverOr(err, t('notify.deleteFailed')) }),
  });
  const src = photo.webUrl ?? photo.fileUrl;

  return (
    <Card withBorder radius="md" padding="sm" component="li">
      <Card.Section>
        {src && !broken ? (
          <img className={classes.thumb} src={src} alt={photo.name} loading="lazy" onError={() => setBroken(true)} />
        ) : (
          <Center h={180} bg="gray.1" role="img" aria-label={photo.name}>
            <Text c="gray.7">{t('brokenImage')}</Text>
          </Center>
        )}
      </Card.Section>
      {editing ? (
        <form onSubmit={save} noValidate>
          <Stack gap="xs" mt="sm">
            <TextInput
              label={t('upload.name')}
              {...form.getInputProps('name')}
              error={form.errors.name ? true : undefined}
            />
            <Textarea
              label={t('upload.description')}
              autosize
              minRows={2}
              {...form.getInputProps('description')}
              error={form.errors.description ? true : undefined}
            />
            {typeof editError === 'string' && (
              <Text c="red.9" size="sm" role="alert">
                {translateMessage(editError)}
              </Text>
            )}
            <Group gap="xs">
              <Button type="submit" size="xs" loading={update.isPending}>
                {t('grid.save')}
              </Button>
              <Button size="xs" variant="default" onClick={cancel}>
                {t('grid.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Stack gap={4} mt="sm">
          <Text fw={700}>{photo.name}</Text>
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {photo.description}
          </Text>
          <Group gap="xs" mt="xs">
            {photo.fileUrl && (
              <Anchor href={photo.fileUrl} target="_blank" rel="noopener noreferrer" size="sm" fw={600}>
                {t('grid.viewFull')}
                <VisuallyHidden>
                  {`: ${photo.name}`}
                  {t('opensInNewTab')}
                </VisuallyHidden>
              </Anchor>
            )}
            <Button
              size="xs"
              variant="light"
              onClick={() => {
                form.setValues({ name: photo.name, description: photo.description });
                setEditing(true);
              }}
              aria-label={t('grid.editLabel', { name: photo.name })}
            >
              {t('grid.edit')}
            </Button>
            <Button
              size="xs"
              color="red.9"
              variant="outline"
              onClick={() => deletion.ask(photo)}
              aria-label={t('grid.deleteLabel', { name: photo.name })}
            >
              {t('grid.delete')}
            </Button>
          </Group>
        </Stack>
      )}
      <ConfirmDelete {...deletion.dialog} message={t('grid.confirmDelete')} />
    </Card>
  );
}

export interface ManagePhotosProps {
  /** The single lab's id; undefined while it loads or when there is none. */
  labId: string | undefined;
  /** GET /api/labs/only failed: 'Failed to load lab information.' */
  labFailed?: boolean;
}

/** Manage Lab Photos (spec §2): the upload form and the 'Existing Lab Photos' grid with inline edit and delete. */
export function ManagePhotos({ labId, labFailed }: ManagePhotosProps) {
  const { t } = useTranslation('gallery');
  const pages = usePhotoPages(labId, MANAGER_PAGE_SIZE);
  const photos = pages.data?.pages.flat() ?? [];
  return (
    <Stack gap="xl">
      {labFailed && (
        <Alert color="red" variant="light" role="alert">
          <Text c="gray.9">{t('errors.loadLab')}</Text>
        </Alert>
      )}
      <UploadPhotoForm labId={labId} />
      <section aria-labelledby="existing-photos-heading">
        <Title order={2} size="h3" mb="md" id="existing-photos-heading">
          {t('grid.title')}
        </Title>
        {!labId ? null : pages.isPending ? (
          <Group gap="xs" role="status">
            <Loader size="sm" aria-hidden="true" />
            <Text>{t('loading')}</Text>
          </Group>
        ) : pages.isError ? (
          <Alert color="red" variant="light" role="alert">
            <Text c="gray.9">{t('errors.fetchPhotos')}</Text>
          </Alert>
        ) : photos.length === 0 ? (
          <EmptyState>{t('grid.empty')}</EmptyState>
        ) : (
          <>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
              {photos.map((photo) => (
                <PhotoCard key={photo._id} labId={labId} photo={photo} />
              ))}
            </SimpleGrid>
            {pages.hasNextPage && (
              <Center mt="md">
                <Button variant="default" onClick={() => void pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
                  {t('grid.loadMore')}
                </Button>
              </Center>
            )}
          </>
        )}
      </section>
    </Stack>
  );
}
