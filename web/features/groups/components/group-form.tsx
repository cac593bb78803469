import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import type { CONTACT_TYPES } from '#shared/constants.ts';
import { createGroupInput, type GroupJson, updateGroupInput } from '#shared/schemas/group.ts';

import { PanelError } from '#web/components/panel-error.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { ContactInfoFieldset } from '#web/components/unit/contact-info-fieldset.tsx';
import { applyServerError, serverMessage, topField, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useCreateGroup, useGroupForEdit, useUpdateGroup } from '../api.ts';
import { EmployeeChecklist } from './employee-checklist.tsx';
import { isForbidden, toast } from './group-parts.tsx';

type ContactRow = { type: (typeof CONTACT_TYPES)[number]; label: string; value: string };
type GroupFormValues = {
  name: string;
  description: string;
  about: string;
  vision: string;
  mission: string;
  GroupHistoryDetails: string;
  contactInfo: ContactRow[];
  employees: string[];
};
type TextField = 'name' | 'description' | 'about' | 'vision' | 'mission' | 'GroupHistoryDetails';

const EMPTY: GroupFormValues = {
  name: '',
  description: '',
  about: '',
  vision: '',
  mission: '',
  GroupHistoryDetails: '',
  contactInfo: [],
  employees: [],
};

/** The text fields: their words and height (the name is one required line). */
const TEXT_FIELDS: Record<TextField, { labelKey: string; rows?: number }> = {
  name: { labelKey: 'fields.name' },
  description: { labelKey: 'fields.description', rows: 3 },
  about: { labelKey: 'fields.about', rows: 5 },
  vision: { labelKey: 'fields.vision', rows: 3 },
  mission: { labelKey: 'fields.mission', rows: 3 },
  GroupHistoryDetails: { labelKey: 'fields.history', rows: 5 },
};

/** What differs between creating and editing: the schema (the API's), the text fields in their order, the payload. */
const MODES = {
  create: {
    schema: createGroupInput,
    fields: ['name', 'description', 'vision', 'mission', 'about'],
    payload: ({ name, description, vision, mission, about, employees }: GroupFormValues) => ({
      name,
      description,
      vision,
      mission,
      about,
      employees,
    }),
  },
  edit: {
    schema: updateGroupInput,
    fields: ['name', 'description', 'about', 'vision', 'mission', 'GroupHistoryDetails'],
    payload: ({ employees: _employees, ...info }: GroupFormValues) => info,
  },
} as const satisfies Record<string, { schema: unknown; fields: readonly TextField[]; payload: unknown }>;

const formOf = (g: GroupJson): GroupFormValues => ({
  ...EMPTY,
  name: g.name,
  description: g.description,
  about: g.about,
  vision: g.vision,
  mission: g.mission,
  GroupHistoryDetails: g.GroupHistoryDetails,
  contactInfo: g.contactInfo.map(({ type, label, value }) => ({ type, label, value })),
});

export type GroupFormProps =
  | { mode: 'create'; onCreated: (group: GroupJson) => void }
  | {
      mode: 'edit';
      groupId: string;
      /** Called after a successful save (the Edit Group screen returns to the group page). */
      onSaved?: (group: GroupJson) => void;
      onCancel?: () => void;
    };

/**
 * The group form, both ways. Create New Research Group (spec §2): name, description, vision, mission (three rows),
 * about (five rows), the 'Assign Employees to Group' checklist and 'Create Group' ('Creating Group...' while busy).
 * The group information editor (spec §2 Edit Group and the admin panel's Manage Groups): name, description, about,
 * vision, mission, history and the Contact Us entries, with 'Save Changes'; admins and the group's current associate
 * director may save, others are told they may not. Checked by the same zod schemas as POST and PUT /api/groups.
 */
export function GroupForm(props: GroupFormProps) {
  const { t } = useTranslation('groups');
  const editing = props.mode === 'edit';
  const groupId = editing ? props.groupId : '';
  // Both mutations exist (hooks run every render); the mode picks one. The group loads only when editing.
  const group = useGroupForEdit(groupId);
  const create = useCreateGroup();
  const update = useUpdateGroup(groupId);
  const mode = MODES[props.mode];
  const form = useForm<GroupFormValues>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: zodValidate(mode.schema),
  });
  const loaded = group.data;
  useEffect(() => {
    if (!loaded) return;
    const values = formOf(loaded);
    form.setValues(values);
    form.resetDirty(values);
    // Load the group into the form once per fetched copy.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded]);

  if (editing && group.isPending) return <PanelLoader />;
  if (editing && group.isError)
    return <PanelError>{isForbidden(group.error) ? t('edit.notAllowed') : t('edit.loadFailed')}</PanelError>;

  const { error } = translatedErrors(form);
  const onSaved = (saved: GroupJson) => {
    if (props.mode === 'create') {
      toast('green', t('create.created'));
      form.reset();
      props.onCreated(saved);
    } else {
      toast('green', t('edit.updated'));
      props.onSaved?.(saved);
    }
  };
  const onFailed = (err: Error) => {
    if (!editing) {
      // spec §8: the server's error field, else 'Failed to create group. Please try again.'
      applyServerError(form, err, { fold: topField });
      toast('red', serverMessage(err, t('create.failed')));
      return;
    }
    const detail = serverMessage(err);
    applyServerError(form, err);
    toast('red', detail ? `${t('edit.failed')}: ${detail}` : t('edit.failed'));
  };
  const submit = form.onSubmit((values) =>
    editing
      ? update.mutate(MODES.edit.payload(values), { onSuccess: onSaved, onError: onFailed })
      : create.mutate(MODES.create.payload(values), { onSuccess: onSaved, onError: onFailed }),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {mode.fields.map((name) => {
          const { labelKey, rows } = TEXT_FIELDS[name];
          const input = { label: t(labelKey), ...form.getInputProps(name), error: error(name) };
          return rows ? <Textarea key={name} rows={rows} {...input} /> : <TextInput key={name} required {...input} />;
        })}
        {editing ? (
          <>
            <ContactInfoFieldset
              form={form}
              legend={t('edit.contactTitle')}
              empty={t('edit.noContacts')}
              error={error}
            />
            <Group>
              <Button type="submit" loading={update.isPending}>
                {t('edit.save')}
              </Button>
              {props.onCancel && (
                <Button variant="default" onClick={props.onCancel} disabled={update.isPending}>
                  {t('edit.cancel')}
                </Button>
              )}
            </Group>
          </>
        ) : (
          <>
            <EmployeeChecklist
              legend={t('create.assign')}
              value={form.getValues().employees}
              onChange={(ids) => form.setFieldValue('employees', ids)}
              disabled={create.isPending}
            />
            {error('employees') && (
              <div role="alert" style={{ color: 'var(--mantine-color-error)' }}>
                {error('employees')}
              </div>
            )}
            <div>
              <Button type="submit" disabled={create.isPending} loading={false}>
                {create.isPending ? t('create.submitting') : t('create.submit')}
              </Button>
            </div>
          </>
        )}
      </Stack>
    </form>
  );
}
