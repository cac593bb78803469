import {
  Avatar,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { acceptFor } from '#shared/constants.ts';
import { type DirectorEntryInput, directorEntryInput, type DirectorEntryJson } from '#shared/schemas/unit.ts';

import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { ConfirmDelete, useConfirmedDelete } from '../confirm-delete.tsx';
import { DataTable } from '../data-table.tsx';
import { DateField } from '../date-field.tsx';
import { EmptyState } from '../empty-state.tsx';
import { FilePicker } from '../file-picker.tsx';
import { PanelError } from '../panel-error.tsx';
import { PanelLoader } from '../panel-loader.tsx';
import { RowActions } from '../row-actions.tsx';
import { entryPhoto } from './unit-panels.tsx';

/** The lab's directors, or a group's associate directors (spec §3: the same entry shape). */
export type DirectorKind = 'director' | 'associateDirector';

export interface StaffOption {
  value: string;
  label: string;
}

type EntryFields = { user: string; name: string; designation: string; from: string; to: string; about: string };
/** The entry's fields, the chosen photo and whether to drop the current one. */
type EntryForm = EntryFields & { image: File | null; removeImage: boolean };
const EMPTY: EntryForm = {
  user: '',
  name: '',
  designation: '',
  from: '',
  to: '',
  about: '',
  image: null,
  removeImage: false,
};

const formOf = (entry: DirectorEntryJson): EntryForm => ({
  user: entry.user?._id ?? '',
  // A linked user's name is theirs: only a manual name goes back into the name field.
  name: entry.user ? (entry.name === entry.user.name ? '' : entry.name) : entry.name,
  designation: entry.designation,
  from: entry.from,
  to: entry.to ?? '',
  about: entry.about,
  image: null,
  removeImage: false,
});

export interface DirectorHistoryManagerProps {
  /** Picks the texts (common namespace, directorHistory.<kind>) and the default designation. */
  kind: DirectorKind;
  /** The feature namespace whose "messages" table words its server's sentences (translateMessage). */
  messageNs: string;
  history: DirectorEntryJson[];
  /** The entry in office now (marked 'Current'). */
  currentId?: string | null;
  loading: boolean;
  failed: boolean;
  /** The feature's mutations: POST (no entryId) or PUT of the multipart entry, and DELETE. */
  save: UseMutationResult<DirectorEntryJson, Error, { entryId?: string; form: FormData }>;
  remove: UseMutationResult<{ message: string }, Error, string>;
  /** The staff to link an entry to. */
  staff: StaffOption[];
  staffLoading?: boolean;
  /** Given: the staff list is searched on the server as the user types (the select does not filter it again). */
  onStaffSearch?: (text: string) => void;
  /** Offers 'Remove the current photo' when editing (the server drops the image on removeImage=true). */
  canRemoveImage?: boolean;
  /** The level of the form's and the history's headings (under the page's h1, or under a section's h2). */
  headingOrder?: 2 | 3;
}

/**
 * A director history (spec §2 Manage Directors, Manage AssociateDirectors): the add/edit form and the history table
 * with edit and delete. A user or a name is required ('Please select a user or enter a name'), the from date too; to
 * is optional (blank is 'Present'); a blank designation takes its kind's default (spec §9).
 */
export function DirectorHistoryManager({
  kind,
  messageNs,
  history,
  currentId,
  loading,
  failed,
  save,
  remove,
  staff,
  staffLoading,
  onStaffSearch,
  canRemoveImage,
  headingOrder = 2,
}: DirectorHistoryManagerProps) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation(['common', messageNs]);
  const words = (key: string, values?: Record<string, string>) => t(`directorHistory.${kind}.${key}`, values);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<DirectorEntryJson | null>(null);
  const form = useForm<EntryForm>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: zodValidate(directorEntryInput),
  });
  const { error } = translatedErrors(form);
  const { image, removeImage } = form.values;
  /** The spec's words, then the server's sentence when it gave one ('Failed to save. Entry not found.'). */
  const failure = (text: string, err: Error) => [text, serverMessage(err)].filter(Boolean).join(' ');

  const options = [...staff];
  if (editing?.user && !options.some((o) => o.value === editing.user!._id)) {
    options.unshift({ value: editing.user._id, label: editing.user.name });
  }
  const formId = `${kind}-form-heading`;
  const headingSize = headingOrder === 2 ? 'h3' : 'h4';

  const reset = () => {
    setEditing(null);
    form.setValues(EMPTY);
    form.resetDirty(EMPTY);
    form.clearErrors();
  };
  const edit = (entry: DirectorEntryJson) => {
    reset();
    setEditing(entry);
    form.setValues(formOf(entry));
    document.getElementById(formId)?.scrollIntoView({ block: 'start' });
  };

  const submit = form.onSubmit(({ image, removeImage, ...values }) => {
    const data = new FormData();
    const input: DirectorEntryInput = values;
    for (const [key, value] of Object.entries(input)) data.set(key, value ?? '');
    if (image) data.set('image', image);
    if (editing && removeImage && !image) data.set('removeImage', 'true');
    save.mutate(
      { entryId: editing?._id, form: data },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: words('saved') });
          reset();
        },
        onError: (err) => {
          applyServerError(form, err);
          notifications.show({ color: 'red', message: failure(t('directorHistory.saveFailed'), err) });
        },
      },
    );
  });
  const deletion = useConfirmedDelete<DirectorEntryJson>(remove, {
    deleted: (entry) => {
      notifications.show({ color: 'green', message: words('deleted') });
      if (editing?._id === entry._id) reset();
    },
    failed: (err) => notifications.show({ color: 'red', message: failure(t('directorHistory.deleteFailed'), err) }),
  });

  return (
    <Stack gap="xl">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={formId}>
        <Title order={headingOrder} size={headingSize} mb="md" id={formId}>
          {editing ? words('editTitle') : words('addTitle')}
        </Title>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label={t('directorHistory.user')}
                description={words('userHint')}
                placeholder={staffLoading && !options.length ? t('loading') : words('userPlaceholder')}
                data={options}
                searchable
                clearable
                nothingFoundMessage={staffLoading ? t('loading') : t('directorHistory.noStaff')}
                {...(onStaffSearch && {
                  searchValue: search,
                  onSearchChange: (text: string) => {
                    setSearch(text);
                    onStaffSearch(text);
                  },
                  filter: ({ options: all }) => all,
                })}
                {...form.getInputProps('user')}
                value={form.getValues().user || null}
                onChange={(value) => form.setFieldValue('user', value ?? '')}
                error={error('user')}
              />
              <TextInput
                label={t('unit.name')}
                description={words('nameHint')}
                {...form.getInputProps('name')}
                error={error('name')}
              />
            </SimpleGrid>
            <TextInput
              label={t('unit.designation')}
              // The default of its kind (spec §9), which the server fills in for a blank designation: in English the
              // shared constant's words (DEFAULT_DIRECTOR_DESIGNATION), in Hindi their translation.
              placeholder={words('designationPlaceholder')}
              description={words('designationHint')}
              {...form.getInputProps('designation')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <DateField label={t('unit.from')} required {...form.getInputProps('from')} error={error('from')} />
              <DateField
                label={t('unit.to')}
                description={words('toHint')}
                {...form.getInputProps('to')}
                error={error('to')}
              />
            </SimpleGrid>
            <Textarea label={t('unit.about')} autosize minRows={3} {...form.getInputProps('about')} />
            <FilePicker
              label={t('directorHistory.image')}
              description={editing?.image && !removeImage ? words('keepImage') : undefined}
              accept={acceptFor('image')}
              {...form.getInputProps('image')}
            />
            {canRemoveImage && editing?.image && !image && (
              <Checkbox
                label={t('directorHistory.removeImage')}
                {...form.getInputProps('removeImage', { type: 'checkbox' })}
              />
            )}
            <Group>
              <Button type="submit" loading={save.isPending}>
                {editing ? t('directorHistory.saveChanges') : words('add')}
              </Button>
              {editing && (
                <Button variant="default" onClick={reset} disabled={save.isPending}>
                  {t('directorHistory.cancel')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Card>

      <section aria-labelledby={`${kind}-history-heading`}>
        <Title order={headingOrder} size={headingSize} mb="md" id={`${kind}-history-heading`}>
          {words('historyTitle')}
        </Title>
        {loading ? (
          <PanelLoader />
        ) : failed ? (
          <PanelError>{words('loadFailed')}</PanelError>
        ) : history.length === 0 ? (
          <EmptyState>{t('unit.noData')}</EmptyState>
        ) : (
          <DataTable
            caption={words('historyTitle')}
            headers={[t('unit.name'), t('unit.from'), t('unit.to')]}
            actions
            minWidth={640}
            verticalSpacing="sm"
          >
            {history.map((entry) => (
              <Table.Tr key={entry._id}>
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    <Avatar src={entryPhoto(entry)} alt="" radius="xl" color="navy">
                      {entry.name.slice(0, 1)}
                    </Avatar>
                    <div>
                      {/* A div, not a p: the 'Current' badge is a div, which a p may not hold. */}
                      <Text fw={600} component="div">
                        {entry.name}{' '}
                        {entry._id === currentId && (
                          <Badge size="sm" color="teal.9" variant="filled">
                            {t('directorHistory.current')}
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
                <Table.Td>{entry.to ? formatDate(entry.to) : t('unit.present')}</Table.Td>
                <RowActions name={entry.name} onEdit={() => edit(entry)} onDelete={() => deletion.ask(entry)} />
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </section>
      <ConfirmDelete {...deletion.dialog} message={words('confirmDelete', { name: deletion.toDelete?.name ?? '' })} />
    </Stack>
  );
}
