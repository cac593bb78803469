import {
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Stack,
  Table,
  Tabs,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { acceptFor } from '#shared/constants.ts';
import { msg } from '#shared/messages/index.ts';
import { isLabDocumentKind, labItemInputFor, type LabItemJson, type LabItemKind } from '#shared/schemas/lab.ts';

import { ConfirmDelete, useConfirmedDelete } from '#web/components/confirm-delete.tsx';
import { DataTable } from '#web/components/data-table.tsx';
import { DateField } from '#web/components/date-field.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { FilePicker } from '#web/components/file-picker.tsx';
import { FileTitle } from '#web/components/new-tab-link.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { RowActions } from '#web/components/row-actions.tsx';
import { translateMessage } from '#web/i18n/index.ts';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { type FormSlot, slotErrors, slotFold } from '#web/lib/form-slot.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useDeleteLabItem, useLab, useSaveLabItem } from '../api.ts';

type ItemForm = { name: string; description: string; validUntil: string; file: File | null; slot: unknown };
const EMPTY: ItemForm = { name: '', description: '', validUntil: '', file: null, slot: undefined };
/** Fields another feature adds to the notice and circular form (decision 075: requires acknowledgement), by the route. */
export type LabItemSlot = FormSlot<unknown, LabItemJson>;
/** spec §5 Lab: a notice or circular needs its file on create. */
const FILE_REQUIRED = msg('units.all_fields_required');

/** The server's field or message after the spec's prefix ('Creation failed: ', 'Update failed: ', 'Delete failed: '). */
const withServer = (prefix: string, err: unknown) => `${prefix} ${serverMessage(err)}`.trim();

/**
 * One list of the lab (notices, circulars, products or advertisements): the add/edit form and the list with edit
 * and delete (spec §2 Lab admin panel). Notices and circulars need a file on create ('All fields are required') and
 * take an optional 'valid until' date; products and advertisements take an optional pdf or image. `slot` adds fields
 * to the notice and circular form (decision 075: requires acknowledgement) and a line to each of their rows.
 */
export function ManageLabItems({
  labId,
  kind,
  slot: documentSlot,
}: {
  labId: string;
  kind: LabItemKind;
  slot?: LabItemSlot;
}) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('lab');
  const lab = useLab(labId);
  const save = useSaveLabItem(labId, kind);
  const remove = useDeleteLabItem(labId, kind);
  const isDocument = isLabDocumentKind(kind);
  const slot = isDocument ? documentSlot : undefined;
  const schema = labItemInputFor(kind);
  const [editing, setEditing] = useState<LabItemJson | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const blank = (): ItemForm => ({ ...EMPTY, slot: slot?.initial(null) });
  const checkItem = zodValidate<ItemForm>(schema, { fileRequired: isDocument && !editing ? FILE_REQUIRED : undefined });
  const form = useForm<ItemForm>({
    mode: 'controlled',
    initialValues: blank(),
    // On edit the file is optional: a new one replaces the old. The slot's fields are checked by the slot.
    validate: (values) => ({ ...checkItem(values), ...slotErrors(slot?.validate(values.slot, editing)) }),
  });
  const { field, error } = translatedErrors(form);
  const words = (key: string) => t(`items.${kind}.${key}`);

  const reset = () => {
    setEditing(null);
    setProblem(null);
    form.setValues(blank());
    form.clearErrors();
  };
  const edit = (item: LabItemJson) => {
    setEditing(item);
    setProblem(null);
    form.setValues({
      name: item.name,
      description: item.description,
      validUntil: item.validUntil ?? '',
      file: null,
      slot: slot?.initial(item),
    });
    form.clearErrors();
    document.getElementById(`${kind}-form-heading`)?.scrollIntoView({ block: 'start' });
  };

  const submit = form.onSubmit(
    ({ file, slot: slotValue, ...values }) => {
      setProblem(null);
      const data = new FormData();
      data.set('name', values.name);
      data.set('description', values.description);
      if (isDocument) data.set('validUntil', values.validUntil);
      if (file) data.set('file', file);
      slot?.write(slotValue, data, editing);
      const prefix = editing ? t('items.updateFailed') : t('items.createFailed');
      save.mutate(
        { itemId: editing?._id, form: data },
        {
          onSuccess: () => {
            notifications.show({ color: 'green', message: editing ? words('updated') : words('created') });
            reset();
          },
          onError: (err) => {
            applyServerError(form, err, { fold: slotFold(slot) });
            const message = withServer(prefix, err);
            setProblem(message);
            notifications.show({ color: 'red', message });
          },
        },
      );
    },
    // Only the file missing: the sentence is also said below the form, as when the server refuses.
    (errors) => {
      if (Object.keys(errors).join() === 'file') setProblem(translateMessage(FILE_REQUIRED));
    },
  );
  const deletion = useConfirmedDelete<LabItemJson>(remove, {
    deleted: (item) => {
      notifications.show({ color: 'green', message: words('deleted') });
      if (editing?._id === item._id) reset();
    },
    failed: (err) => notifications.show({ color: 'red', message: withServer(t('items.deleteFailed'), err) }),
  });

  const items = lab.data?.[kind] ?? [];
  const fileKind = isDocument ? 'labNotice' : 'product';

  return (
    <Stack gap="xl">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={`${kind}-form-heading`}>
        <Title order={2} size="h4" mb="md" id={`${kind}-form-heading`}>
          {editing ? words('editTitle') : words('addTitle')}
        </Title>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput label={t('fields.name')} required {...field('name')} />
            <Textarea label={t('fields.description')} required autosize minRows={2} {...field('description')} />
            {isDocument && (
              <DateField
                label={t('items.validUntil')}
                description={t('items.validUntilHint')}
                {...field('validUntil')}
              />
            )}
            {slot?.render({
              value: form.values.slot,
              onChange: (value) => form.setFieldValue('slot', value),
              error: (name) => error(`slot.${name}`),
              item: editing,
            })}
            <FilePicker
              label={t('items.file')}
              description={[
                editing?.fileUrl ? t('items.keepFile') : '',
                t('items.fileTypes', { types: acceptFor(fileKind).replaceAll(',', ', ') }),
              ]
                .filter(Boolean)
                .join('. ')}
              accept={acceptFor(fileKind)}
              required={isDocument && !editing}
              {...field('file')}
            />
            {problem && <PanelError>{problem}</PanelError>}
            <Group>
              <Button type="submit" loading={save.isPending}>
                {editing ? t('form.saveChanges') : words('add')}
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

      <section aria-labelledby={`${kind}-list-heading`}>
        <Title order={2} size="h4" mb="sm" id={`${kind}-list-heading`}>
          {words('listTitle')}
        </Title>
        {lab.isPending ? (
          <Center py="md" role="status">
            <Loader size="sm" role="img" aria-label={t('loading')} />
          </Center>
        ) : lab.isError ? (
          <PanelError>{t('errors.fetchLabData')}</PanelError>
        ) : items.length === 0 ? (
          <EmptyState>{words('empty')}</EmptyState>
        ) : (
          <DataTable
            caption={words('listTitle')}
            headers={[
              t('fields.name'),
              t('fields.description'),
              t('items.posted'),
              ...(isDocument ? [t('items.validUntil')] : []),
            ]}
            actions
            minWidth={640}
            verticalSpacing="sm"
          >
            {items.map((item) => (
              <Table.Tr key={item._id}>
                <Table.Td>
                  <FileTitle name={item.name} fileUrl={item.fileUrl} />
                  {item.expired && (
                    <Badge ml="xs" size="sm" color="gray.7" variant="filled">
                      {t('home.archived')}
                    </Badge>
                  )}
                  {slot?.summary?.(item)}
                </Table.Td>
                <Table.Td>{item.description}</Table.Td>
                <Table.Td>{formatDate(item.createdAt)}</Table.Td>
                {isDocument && (
                  <Table.Td>{item.validUntil ? formatDate(item.validUntil) : t('items.noExpiry')}</Table.Td>
                )}
                <RowActions name={item.name} onEdit={() => edit(item)} onDelete={() => deletion.ask(item)} />
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </section>
      <ConfirmDelete
        {...deletion.dialog}
        message={t(`items.${kind}.confirmDelete`, { name: deletion.toDelete?.name ?? '' })}
      />
    </Stack>
  );
}

/** Two lists side by side as tabs: Notices & Circulars, or Products & Advertisements. */
function ItemTabs({ labId, kinds, slot }: { labId: string; kinds: [LabItemKind, LabItemKind]; slot?: LabItemSlot }) {
  const { t } = useTranslation('lab');
  return (
    <Tabs defaultValue={kinds[0]} keepMounted={false}>
      <Tabs.List mb="md">
        {kinds.map((kind) => (
          <Tabs.Tab key={kind} value={kind}>
            {t(`items.${kind}.tab`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {kinds.map((kind) => (
        <Tabs.Panel key={kind} value={kind}>
          <ManageLabItems labId={labId} kind={kind} slot={slot} />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

/** Manage Notices & Circulars: add, list, edit and delete (spec §2); `slot`: decision 075's acknowledgement fields. */
export const ManageNoticesAndCirculars = ({ labId, slot }: { labId: string; slot?: LabItemSlot }) => (
  <ItemTabs labId={labId} kinds={['notices', 'circulars']} slot={slot} />
);
/** Manage Products & Achievements: products and advertisements tabs (spec §2). */
export const ManageProducts = ({ labId }: { labId: string }) => (
  <ItemTabs labId={labId} kinds={['products', 'advertisements']} />
);
