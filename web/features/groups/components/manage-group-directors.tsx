import { useState } from 'react';
import {
  Avatar,
  Badge,
  Button,
  Card,
  Checkbox,
  FileInput,
  Group,
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
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { acceptFor, DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION } from '#shared/constants.ts';
import { formatDate } from '#shared/format.ts';
import { directorEntryInput, type DirectorEntryJson } from '#shared/schemas/unit.ts';
import { ConfirmDelete } from '#web/components/confirm-delete.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { translateMessage } from '#web/i18n/index.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useDeleteDirectorEntry, useGroup, useSaveDirectorEntry, useStaff } from '../api.ts';
import { employeeLabel } from '../employee-label.ts';
import { Loading, PanelError, toast, withServer } from './group-parts.tsx';
import { entryPhoto } from './group-panels.tsx';

type EntryForm = { user: string; name: string; designation: string; from: string; to: string; about: string };
const EMPTY: EntryForm = { user: '', name: '', designation: '', from: '', to: '', about: '' };

const formOf = (entry: DirectorEntryJson): EntryForm => ({
  user: entry.user?._id ?? '',
  // A linked user's name is theirs: only a manual name goes back into the name field.
  name: entry.user ? (entry.name === entry.user.name ? '' : entry.name) : entry.name,
  designation: entry.designation,
  from: entry.from,
  to: entry.to ?? '',
  about: entry.about,
});

/**
 * Manage AssociateDirectors (spec §2 group admin panel): the associate-director history with add, edit and delete.
 * A staff member or a name is required ('Please select a user or enter a name'), the from date too; to is optional
 * (blank is 'Present'); a blank designation is Assistant Director. The current one is the entry with no end date.
 */
export function ManageGroupDirectors({ groupId }: { groupId: string }) {
  const { t } = useTranslation('groups');
  const group = useGroup(groupId);
  const save = useSaveDirectorEntry(groupId);
  const remove = useDeleteDirectorEntry(groupId);
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 250);
  const staff = useStaff(query, 50);
  const [editing, setEditing] = useState<DirectorEntryJson | null>(null);
  const [image, setImage] = useState<File | null>(null);
  const [removeImage, setRemoveImage] = useState(false);
  const [toDelete, setToDelete] = useState<DirectorEntryJson | null>(null);
  const form = useForm<EntryForm>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: schemaResolver(directorEntryInput, { sync: true }),
  });
  const error = (path: keyof EntryForm) => {
    const message = form.errors[path];
    return typeof message === 'string' ? translateMessage(message, 'groups') : message;
  };

  const options = (staff.data ?? []).map((p) => ({
    value: p._id,
    label: employeeLabel(p, t('create.unknownEmployee')),
  }));
  if (editing?.user && !options.some((o) => o.value === editing.user!._id)) {
    options.unshift({ value: editing.user._id, label: editing.user.name });
  }

  const reset = () => {
    setEditing(null);
    setImage(null);
    setRemoveImage(false);
    form.setValues(EMPTY);
    form.clearErrors();
  };
  const edit = (entry: DirectorEntryJson) => {
    reset();
    setEditing(entry);
    form.setValues(formOf(entry));
    document.getElementById('ad-form-heading')?.scrollIntoView({ block: 'start' });
  };

  const submit = form.onSubmit((values) => {
    const data = new FormData();
    for (const [key, value] of Object.entries(values)) data.set(key, value ?? '');
    if (image) data.set('image', image);
    if (editing && removeImage && !image) data.set('removeImage', 'true');
    save.mutate(
      { entryId: editing?._id, form: data },
      {
        onSuccess: () => {
          toast('green', t('directors.saved'));
          reset();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.field && err.field in EMPTY)
            form.setFieldError(err.field, translateMessage(err.message, 'groups'));
          toast('red', withServer(t('directors.saveFailed'), err));
        },
      },
    );
  });
  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete._id, {
      onSuccess: () => {
        toast('green', t('directors.deleted'));
        if (editing?._id === toDelete._id) reset();
      },
      onError: (err) => toast('red', withServer(t('directors.deleteFailed'), err)),
      onSettled: () => setToDelete(null),
    });
  };

  const history = group.data?.assistantDirectorHistory ?? [];
  const currentId = group.data?.currentAD?._id;

  return (
    <Stack gap="xl">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="ad-form-heading">
        <Title order={3} size="h4" mb="md" id="ad-form-heading">
          {editing ? t('directors.editTitle') : t('directors.addTitle')}
        </Title>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label={t('directors.user')}
                description={t('directors.userHint')}
                placeholder={t('directors.userPlaceholder')}
                data={options}
                searchable
                clearable
                searchValue={search}
                onSearchChange={setSearch}
                filter={({ options: all }) => all}
                nothingFoundMessage={staff.isFetching ? t('loading') : t('directors.noStaff')}
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
              placeholder={DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION}
              description={t('directors.designationHint')}
              {...form.getInputProps('designation')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                type="date"
                label={t('fields.from')}
                required
                {...form.getInputProps('from')}
                error={error('from')}
              />
              <TextInput
                type="date"
                label={t('fields.to')}
                description={t('directors.toHint')}
                {...form.getInputProps('to')}
                error={error('to')}
              />
            </SimpleGrid>
            <Textarea label={t('fields.about')} rows={3} {...form.getInputProps('about')} />
            <FileInput
              label={t('directors.image')}
              description={editing?.image && !removeImage ? t('directors.keepImage') : undefined}
              accept={acceptFor('image')}
              clearable
              value={image}
              onChange={setImage}
            />
            {editing?.image && !image && (
              <Checkbox
                label={t('directors.removeImage')}
                checked={removeImage}
                onChange={(e) => setRemoveImage(e.currentTarget.checked)}
              />
            )}
            <Group>
              <Button type="submit" loading={save.isPending}>
                {editing ? t('items.save') : t('directors.add')}
              </Button>
              {editing && (
                <Button variant="default" onClick={reset} disabled={save.isPending}>
                  {t('items.cancel')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Card>

      <section aria-labelledby="ad-history-heading">
        <Title order={3} size="h4" mb="md" id="ad-history-heading">
          {t('directors.historyTitle')}
        </Title>
        {group.isPending ? (
          <Loading />
        ) : group.isError ? (
          <PanelError>{t('errors.currentAD')}</PanelError>
        ) : history.length === 0 ? (
          <EmptyState>{t('page.noData')}</EmptyState>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped withTableBorder verticalSpacing="sm">
              <VisuallyHidden component="caption">{t('directors.historyTitle')}</VisuallyHidden>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('fields.name')}</Table.Th>
                  <Table.Th scope="col">{t('fields.from')}</Table.Th>
                  <Table.Th scope="col">{t('fields.to')}</Table.Th>
                  <Table.Th scope="col">{t('fields.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.map((entry) => (
                  <Table.Tr key={entry._id}>
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <Avatar src={entryPhoto(entry)} alt="" radius="xl" color="navy">
                          {entry.name.slice(0, 1)}
                        </Avatar>
                        <div>
                          <Text fw={600}>
                            {entry.name}{' '}
                            {entry._id === currentId && (
                              <Badge size="sm" color="teal.9" variant="filled">
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
                    <Table.Td>{entry.to ? formatDate(entry.to) : t('present')}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() => edit(entry)}
                          aria-label={t('items.editNamed', { name: entry.name })}
                        >
                          {t('items.edit')}
                        </Button>
                        <Button
                          size="xs"
                          variant="filled"
                          color="red.9"
                          onClick={() => setToDelete(entry)}
                          aria-label={t('items.deleteNamed', { name: entry.name })}
                        >
                          {t('items.delete')}
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
