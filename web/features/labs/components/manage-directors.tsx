import { useState } from 'react';
import {
  Alert,
  Avatar,
  Badge,
  Button,
  Card,
  Center,
  FileInput,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { acceptFor, DEFAULT_DIRECTOR_DESIGNATION } from '#shared/constants.ts';
import { formatDate } from '#shared/format.ts';
import { directorEntryInput, type DirectorEntryInput, type DirectorEntryJson } from '#shared/schemas/unit.ts';
import { ConfirmDelete } from '#web/components/confirm-delete.tsx';
import { DateField } from '#web/components/date-field.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { translateMessage } from '#web/i18n/index.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useDeleteDirector, useLab, useSaveDirector } from '../api.ts';
import { directorPhoto } from './lab-panels.tsx';

export interface StaffOption {
  value: string;
  label: string;
}

type DirectorForm = { user: string; name: string; designation: string; from: string; to: string; about: string };
const EMPTY: DirectorForm = { user: '', name: '', designation: '', from: '', to: '', about: '' };

const formOf = (entry: DirectorEntryJson): DirectorForm => ({
  user: entry.user?._id ?? '',
  // A linked user's name is theirs: only a manual name goes back into the name field.
  name: entry.user ? (entry.name === entry.user.name ? '' : entry.name) : entry.name,
  designation: entry.designation,
  from: entry.from,
  to: entry.to ?? '',
  about: entry.about,
});

/**
 * Manage Directors (spec §2 Lab admin panel): add, edit and delete director history entries. A user or a name is
 * required, the from date too; to is optional (blank is 'Present'); the designation defaults to Director.
 */
export function ManageDirectors({
  labId,
  staff,
  staffLoading,
}: {
  labId: string;
  staff: StaffOption[];
  staffLoading?: boolean;
}) {
  const { t } = useTranslation('lab');
  const lab = useLab(labId);
  const save = useSaveDirector(labId);
  const remove = useDeleteDirector(labId);
  const [editing, setEditing] = useState<DirectorEntryJson | null>(null);
  const [image, setImage] = useState<File | null>(null);
  const [toDelete, setToDelete] = useState<DirectorEntryJson | null>(null);
  const form = useForm<DirectorForm>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: schemaResolver(directorEntryInput, { sync: true }),
  });
  const error = (path: keyof DirectorForm) => {
    const message = form.errors[path];
    return typeof message === 'string' ? translateMessage(message, 'lab') : message;
  };

  const reset = () => {
    setEditing(null);
    setImage(null);
    form.setValues(EMPTY);
    form.resetDirty(EMPTY);
    form.clearErrors();
  };
  const edit = (entry: DirectorEntryJson) => {
    setEditing(entry);
    setImage(null);
    form.setValues(formOf(entry));
    form.clearErrors();
    document.getElementById('director-form-heading')?.scrollIntoView({ block: 'start' });
  };

  const onSubmit = (values: DirectorForm) => {
    const data = new FormData();
    const input: DirectorEntryInput = values;
    for (const [key, value] of Object.entries(input)) data.set(key, value ?? '');
    if (image) data.set('image', image);
    save.mutate(
      { entryId: editing?._id, form: data },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t('directors.saved') });
          reset();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.field && err.field in EMPTY) form.setFieldError(err.field, err.message);
          const detail = err instanceof ApiError && err.message ? ` ${translateMessage(err.message, 'lab')}` : '';
          notifications.show({ color: 'red', message: `${t('directors.saveFailed')}${detail}` });
        },
      },
    );
  };
  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete._id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: t('directors.deleted') });
        if (editing?._id === toDelete._id) reset();
      },
      onError: (err) => {
        const detail = err instanceof ApiError && err.message ? ` ${translateMessage(err.message, 'lab')}` : '';
        notifications.show({ color: 'red', message: `${t('directors.deleteFailed')}${detail}` });
      },
      onSettled: () => setToDelete(null),
    });
  };

  const history = lab.data?.directorHistory ?? [];
  const currentId = lab.data?.currentDirector?._id;

  return (
    <Stack gap="xl">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="director-form-heading">
        <Title order={2} size="h3" mb="md" id="director-form-heading">
          {editing ? t('directors.editTitle') : t('directors.addTitle')}
        </Title>
        <form onSubmit={form.onSubmit(onSubmit)} noValidate>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label={t('directors.user')}
                description={t('directors.userHint')}
                placeholder={staffLoading ? t('loading') : t('directors.userPlaceholder')}
                data={staff}
                searchable
                clearable
                nothingFoundMessage={t('directors.noStaff')}
                {...form.getInputProps('user')}
                value={form.getValues().user || null}
                onChange={(value) => form.setFieldValue('user', value ?? '')}
                error={error('user')}
              />
              <TextInput
                label={t('directors.name')}
                description={t('directors.nameHint')}
                {...form.getInputProps('name')}
                error={error('name')}
              />
            </SimpleGrid>
            <TextInput
              label={t('fields.designation')}
              placeholder={DEFAULT_DIRECTOR_DESIGNATION}
              description={t('directors.designationHint')}
              {...form.getInputProps('designation')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <DateField label={t('fields.from')} required {...form.getInputProps('from')} error={error('from')} />
              <DateField
                label={t('fields.to')}
                description={t('directors.toHint')}
                {...form.getInputProps('to')}
                error={error('to')}
              />
            </SimpleGrid>
            <Textarea label={t('fields.about')} autosize minRows={3} {...form.getInputProps('about')} />
            <FileInput
              label={t('directors.image')}
              description={editing?.image ? t('directors.keepImage') : undefined}
              accept={acceptFor('image')}
              clearable
              value={image}
              onChange={setImage}
            />
            <Group>
              <Button type="submit" loading={save.isPending}>
                {editing ? t('form.saveChanges') : t('directors.add')}
              </Button>
              {editing && (
                <Button variant="default" onClick={reset} disabled={save.isPending}>
                  {t('form.cancel')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Card>

      <section aria-labelledby="director-history-heading">
        <Title order={2} size="h3" mb="md" id="director-history-heading">
          {t('directors.historyTitle')}
        </Title>
        {lab.isPending ? (
          <Center py="md" role="status">
            <Loader size="sm" aria-label={t('loading')} />
          </Center>
        ) : lab.isError ? (
          <Alert color="red" variant="light" role="alert">
            <Text c="gray.9">{t('errors.directorHistory')}</Text>
          </Alert>
        ) : history.length === 0 ? (
          <EmptyState>{t('home.noData')}</EmptyState>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped withTableBorder verticalSpacing="sm">
              <VisuallyHidden component="caption">{t('directors.historyTitle')}</VisuallyHidden>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('fields.name')}</Table.Th>
                  <Table.Th scope="col">{t('fields.from')}</Table.Th>
                  <Table.Th scope="col">{t('fields.to')}</Table.Th>
                  <Table.Th scope="col">{t('form.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.map((entry) => (
                  <Table.Tr key={entry._id}>
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <Avatar src={directorPhoto(entry)} alt="" radius="xl" color="navy">
                          {entry.name.slice(0, 1)}
                        </Avatar>
                        <div>
                          <Text fw={600}>
                            {entry.name}{' '}
                            {entry._id === currentId && (
                              <Badge size="sm" color="green.9" variant="filled">
                                {t('directors.current')}
                              </Badge>
                            )}
                          </Text>
                          <Text size="sm" c="gray.7">
                            {entry.designation}
                          </Text>
                        </div>
                      </Group>
                    </Table.Td>
                    <Table.Td>{formatDate(entry.from)}</Table.Td>
                    <Table.Td>{entry.to ? formatDate(entry.to) : t('home.present')}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() => edit(entry)}
                          aria-label={t('form.editNamed', { name: entry.name })}
                        >
                          {t('form.edit')}
                        </Button>
                        <Button
                          size="xs"
                          variant="outline"
                          color="red.9"
                          onClick={() => setToDelete(entry)}
                          aria-label={t('form.deleteNamed', { name: entry.name })}
                        >
                          {t('form.delete')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </section>
      <ConfirmDelete
        opened={toDelete !== null}
        message={t('directors.confirmDelete', { name: toDelete?.name ?? '' })}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
        loading={remove.isPending}
      />
    </Stack>
  );
}
