import { Button, Card, Group, Progress, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { acceptFor, FILE_TYPES } from '#shared/constants.ts';
import {
  GROUP_DOCUMENT_MESSAGE,
  GROUP_FILE_MESSAGE,
  groupItemInputFor,
  type GroupItemJson,
} from '#shared/schemas/group.ts';

import { ConfirmDelete, useConfirmedDelete } from '#web/components/confirm-delete.tsx';
import { DataTable } from '#web/components/data-table.tsx';
import { DateField } from '#web/components/date-field.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { FilePicker } from '#web/components/file-picker.tsx';
import { NewTabLink } from '#web/components/new-tab-link.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { RowActions } from '#web/components/row-actions.tsx';
import { applyServerError, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { type FormSlot, slotErrors, slotFold } from '#web/lib/form-slot.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import {
  type GroupListField,
  isDocumentField,
  useDeleteGroupItem,
  useGroup,
  useGroupFiles,
  useSaveGroupItem,
} from '../api.ts';
import { toast, withServer } from './group-parts.tsx';

type ItemForm = { name: string; description: string; validUntil: string; file: File | null; slot: unknown };
const EMPTY: ItemForm = { name: '', description: '', validUntil: '', file: null, slot: undefined };
/** Fields another feature adds to the notice and circular form (decision 075: requires acknowledgement), by the route. */
export type GroupItemSlot = FormSlot<unknown, GroupItemJson>;

/**
 * One list of a group with its add/edit form and delete (spec §2 group admin panel): notices and circulars
 * ('All fields are required'; document files) or one of the five file managers ('All fields required'; pdf, ppt,
 * pptx, xls, xlsx and video). A file is required on create and optional on edit; uploads show their progress.
 * `slot` adds fields to the notice and circular form (decision 075: requires acknowledgement) and a line to their rows.
 */
export function ManageGroupItems({
  groupId,
  field,
  slot: documentSlot,
}: {
  groupId: string;
  field: GroupListField;
  slot?: GroupItemSlot;
}) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('groups');
  const isDocument = isDocumentField(field);
  const slot = isDocument ? documentSlot : undefined;
  const required = isDocument ? GROUP_DOCUMENT_MESSAGE : GROUP_FILE_MESSAGE;
  const schema = groupItemInputFor(field);
  // Notices and circulars come with the group; each file manager fetches its own list (spec §7 GET /api/group-files).
  const group = useGroup(isDocument ? groupId : '');
  const files = useGroupFiles(groupId, field, { enabled: !isDocument });
  const list = isDocument ? group : files;
  const items: GroupItemJson[] = (isDocument ? group.data?.[field as 'notices' | 'circulars'] : files.data) ?? [];
  const save = useSaveGroupItem(groupId, field);
  const remove = useDeleteGroupItem(groupId, field);
  const [editing, setEditing] = useState<GroupItemJson | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const blank = (): ItemForm => ({ ...EMPTY, slot: slot?.initial(null) });
  const checkItem = zodValidate<ItemForm>(schema, { fileRequired: editing ? undefined : required });
  const form = useForm<ItemForm>({
    mode: 'controlled',
    initialValues: blank(),
    // spec §5 Groups: a file is required on create, optional on edit. The slot's fields are checked by the slot.
    validate: (values) => ({ ...checkItem(values), ...slotErrors(slot?.validate(values.slot, editing)) }),
  });
  const { field: fieldProps, error } = translatedErrors(form);
  const kind = t(`items.singular.${field}`);
  const words = {
    loadFailed: isDocument ? t('items.loadFailed') : t('items.fetchFailed'),
    saveFailed: isDocument ? t('items.saveFailed') : t('items.uploadFailed'),
    deleteFailed: isDocument ? t('items.deleteFailed') : t('items.fileDeleteFailed'),
  };
  const headingId = `${field}-form-heading`;

  const reset = () => {
    setEditing(null);
    setProgress(null);
    form.setValues(blank());
    form.clearErrors();
  };
  const edit = (item: GroupItemJson) => {
    reset();
    setEditing(item);
    form.setValues({
      name: item.name,
      description: item.description,
      validUntil: item.validUntil ?? '',
      file: null,
      slot: slot?.initial(item),
    });
    document.getElementById(headingId)?.scrollIntoView({ block: 'start' });
  };

  const submit = form.onSubmit(({ file, slot: slotValue, ...values }) => {
    const data = new FormData();
    data.set('name', values.name);
    data.set('description', values.description);
    if (isDocument) data.set('validUntil', values.validUntil);
    if (file) data.set('file', file);
    slot?.write(slotValue, data, editing);
    setProgress(file ? 0 : null);
    save.mutate(
      { itemId: editing?._id, form: data, onProgress: setProgress },
      {
        onSuccess: () => {
          toast('green', t('items.saved'));
          reset();
        },
        onError: (err) => {
          setProgress(null);
          applyServerError(form, err, { fold: slotFold(slot) });
          toast('red', withServer(words.saveFailed, err));
        },
      },
    );
  });
  const deletion = useConfirmedDelete<GroupItemJson>(remove, {
    deleted: (item) => {
      toast('green', t('items.deleted'));
      if (editing?._id === item._id) reset();
    },
    failed: (err) => toast('red', withServer(words.deleteFailed, err)),
  });

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
        <Title order={3} size="h4" mb="md" id={headingId}>
          {editing ? t('items.editTitle', { kind }) : t('items.addTitle', { kind })}
        </Title>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput label={t('fields.name')} required {...fieldProps('name')} />
            <Textarea label={t('fields.description')} required rows={3} {...fieldProps('description')} />
            {isDocument && (
              <DateField
                label={t('items.validUntil')}
                description={t('items.validUntilHint')}
                {...fieldProps('validUntil')}
              />
            )}
            {slot?.render({
              value: form.values.slot,
              onChange: (value) => form.setFieldValue('slot', value),
              error: (name) => error(`slot.${name}`),
              item: editing,
            })}
            <FilePicker
              label={t('fields.file')}
              required={!editing}
              description={
                editing?.fileName
                  ? t('items.currentFile', { name: editing.fileName })
                  : t('items.allowedTypes', { types: FILE_TYPES[isDocument ? 'labNotice' : 'groupFile'].join(', ') })
              }
              accept={acceptFor(isDocument ? 'labNotice' : 'groupFile')}
              {...fieldProps('file')}
            />
            {progress !== null && save.isPending && (
              <div>
                <Progress value={progress} aria-label={t('items.uploading', { percent: progress })} />
                <Text size="xs" c="gray.8" mt={4}>
                  {t('items.uploading', { percent: progress })}
                </Text>
              </div>
            )}
            <Group>
              <Button type="submit" loading={save.isPending}>
                {editing ? t('items.save') : t('items.add')}
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

      {list.isPending ? (
        <PanelLoader />
      ) : list.isError ? (
        <PanelError>{words.loadFailed}</PanelError>
      ) : items.length === 0 ? (
        <EmptyState>{t(`lists.empty${field[0]!.toUpperCase()}${field.slice(1)}`)}</EmptyState>
      ) : (
        <DataTable
          caption={t(`lists.${field}`)}
          headers={[
            t('fields.name'),
            t('fields.description'),
            ...(isDocument ? [t('items.validUntil')] : []),
            t('fields.file'),
          ]}
          actions
          minWidth={600}
          verticalSpacing="sm"
        >
          {items.map((item) => (
            <Table.Tr key={item._id}>
              <Table.Td>
                <Text fw={600}>{item.name}</Text>
                <Text size="xs" c="gray.7">
                  {formatDate(item.createdAt)}
                </Text>
                {slot?.summary?.(item)}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'pre-line' }}>{item.description}</Table.Td>
              {isDocument && <Table.Td>{item.validUntil ? formatDate(item.validUntil) : t('items.noExpiry')}</Table.Td>}
              <Table.Td>
                {item.fileUrl ? (
                  <NewTabLink href={item.fileUrl}>{item.fileName ?? t('lists.openFile')}</NewTabLink>
                ) : null}
              </Table.Td>
              <RowActions name={item.name} onEdit={() => edit(item)} onDelete={() => deletion.ask(item)} />
            </Table.Tr>
          ))}
        </DataTable>
      )}
      <ConfirmDelete {...deletion.dialog} message={t('items.confirmDelete', { name: deletion.toDelete?.name ?? '' })} />
    </Stack>
  );
}
