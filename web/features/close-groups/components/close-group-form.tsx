import { Button, Fieldset, Group, MultiSelect, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { closeGroupInput, type CloseGroupJson } from '#shared/schemas/close-group.ts';

import { DateField } from '#web/components/date-field.tsx';
import { useInPlaceCombobox } from '#web/components/in-place-combobox.ts';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useSaveCloseGroup, useStaffOptions } from '../api.ts';

interface CloseGroupValues {
  groupName: string;
  groupPurpose: string;
  groupDuration: { from: string; to: string };
  requestedBy: string[];
  adminRemarks: string;
}

const valuesOf = (group: CloseGroupJson | null): CloseGroupValues => ({
  groupName: group?.groupName ?? '',
  groupPurpose: group?.groupPurpose ?? '',
  groupDuration: { from: group?.groupDuration.from ?? '', to: group?.groupDuration.to ?? '' },
  requestedBy: group?.requestedBy.map((m) => m._id) ?? [],
  adminRemarks: group?.adminRemarks ?? '',
});

/** A refused member (`requestedBy.2`) is shown on the Requested By box. */
const foldMembers = (path: string) => (path.startsWith('requestedBy') ? 'requestedBy' : path);

const personLabel = (p: { name: string; email: string }) => (p.name ? `${p.name} (${p.email})` : p.email);

export interface CloseGroupFormProps {
  /** The close group being edited, or null to create one (spec §4: the mode follows whether an id is held). */
  editing: CloseGroupJson | null;
  /** After a save or Cancel: the screen leaves edit mode. */
  onDone: () => void;
}

/**
 * Create and edit form of Manage Close Groups (spec §2, §3 Close group): checked by the same schema as the server
 * (spec §5 Close group), messages of spec §8. Mount it with `key` = the edited id so each group starts afresh.
 */
export function CloseGroupForm({ editing, onDone }: CloseGroupFormProps) {
  const { t } = useTranslation('close-groups');
  const save = useSaveCloseGroup();
  const form = useForm<CloseGroupValues>({
    mode: 'controlled',
    initialValues: valuesOf(editing),
    validate: zodValidate(closeGroupInput, { fold: foldMembers }),
  });

  // Requested By: the server searches staff by name or email; picked people keep their labels whatever is searched next.
  const [search, setSearch] = useState('');
  const memberList = useInPlaceCombobox(); // the open list stays in the page's landmarks (axe region)
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const staff = useStaffOptions(debouncedSearch);
  const [picked, setPicked] = useState<Map<string, string>>(
    () => new Map(editing?.requestedBy.map((m) => [m._id, personLabel(m)]) ?? []),
  );
  const found = (staff.data?.items ?? []).map((u) => ({
    value: u._id,
    label: personLabel({ name: u.personalDetails.name, email: u.email }),
  }));
  const options = [
    ...[...picked].filter(([id]) => !found.some((o) => o.value === id)).map(([value, label]) => ({ value, label })),
    ...found,
  ];
  const onMembersChange = (ids: string[]) => {
    const labels = new Map(options.map((o) => [o.value, o.label]));
    setPicked(new Map(ids.map((id) => [id, labels.get(id) ?? picked.get(id) ?? id])));
    form.setFieldValue('requestedBy', ids);
  };

  const { field, error } = translatedErrors(form);

  const reset = () => {
    form.setValues(valuesOf(null));
    form.clearErrors();
    setPicked(new Map());
    setSearch('');
  };

  const onSubmit = (values: CloseGroupValues) =>
    save.mutate(
      { id: editing?._id ?? null, values },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t(editing ? 'admin.updated' : 'admin.created') });
          reset();
          onDone();
        },
        onError: (err) => {
          applyServerError(form, err, { fold: foldMembers });
          notifications.show({
            color: 'red',
            title: t('admin.operationFailed'),
            message: serverMessage(err, t('admin.operationFailed')),
          });
        },
      },
    );

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        <TextInput label={t('admin.groupName')} required maxLength={200} {...field('groupName')} />
        <Textarea
          label={t('admin.groupPurpose')}
          required
          autosize
          minRows={3}
          maxLength={5000}
          {...field('groupPurpose')}
        />
        <Fieldset legend={t('admin.groupDuration')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <DateField label={t('admin.from')} required {...field('groupDuration.from')} />
            <DateField label={t('admin.to')} required {...field('groupDuration.to')} />
          </SimpleGrid>
        </Fieldset>
        <MultiSelect
          label={t('admin.requestedBy')}
          description={t('admin.requestedByHint')}
          placeholder={t('admin.requestedByPlaceholder')}
          required
          searchable
          clearable
          clearButtonProps={{ 'aria-label': t('admin.clearMembers') }}
          hidePickedOptions
          data={options}
          value={form.values.requestedBy}
          onChange={onMembersChange}
          searchValue={search}
          onSearchChange={setSearch}
          nothingFoundMessage={staff.isFetching ? t('admin.searching') : t('admin.noStaffFound')}
          error={staff.isError ? t('admin.usersFailed') : error('requestedBy')}
          {...memberList}
        />
        <Textarea label={t('admin.adminRemarks')} autosize minRows={2} maxLength={5000} {...field('adminRemarks')} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            {t(editing ? 'admin.update' : 'admin.create')}
          </Button>
          {editing && (
            <Button
              variant="default"
              onClick={() => {
                reset();
                onDone();
              }}
            >
              {t('admin.cancel')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
