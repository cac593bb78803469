import { Button, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { createGroupInput, type GroupJson } from '#shared/schemas/group.ts';
import { applyServerError, serverMessage, topField, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { useCreateGroup } from '../api.ts';
import { toast } from './group-parts.tsx';
import { EmployeeChecklist } from './employee-checklist.tsx';

type CreateForm = {
  name: string;
  description: string;
  vision: string;
  mission: string;
  about: string;
  employees: string[];
};
const EMPTY: CreateForm = { name: '', description: '', vision: '', mission: '', about: '', employees: [] };

/**
 * Create New Research Group (spec §2): name, description, vision, mission (three rows), about (five rows), the
 * 'Assign Employees to Group' checklist and 'Create Group' ('Creating Group...' while busy). Checked by the same zod
 * schema as POST /api/groups ('Group name is required').
 */
export function CreateGroupForm({ onCreated }: { onCreated: (group: GroupJson) => void }) {
  const { t } = useTranslation('groups');
  const createGroup = useCreateGroup();
  const form = useForm<CreateForm>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: zodValidate(createGroupInput),
  });
  const { error } = translatedErrors(form, 'groups');

  const submit = form.onSubmit((values) =>
    createGroup.mutate(values, {
      onSuccess: (group) => {
        toast('green', t('create.created'));
        form.reset();
        onCreated(group);
      },
      onError: (err) => {
        // spec §8: the server's error field, else 'Failed to create group. Please try again.'
        applyServerError(form, err, { fold: topField });
        toast('red', serverMessage(err, 'groups', t('create.failed')));
      },
    }),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label={t('fields.name')} required {...form.getInputProps('name')} error={error('name')} />
        <Textarea
          label={t('fields.description')}
          rows={3}
          {...form.getInputProps('description')}
          error={error('description')}
        />
        <Textarea label={t('fields.vision')} rows={3} {...form.getInputProps('vision')} error={error('vision')} />
        <Textarea label={t('fields.mission')} rows={3} {...form.getInputProps('mission')} error={error('mission')} />
        <Textarea label={t('fields.about')} rows={5} {...form.getInputProps('about')} error={error('about')} />
        <EmployeeChecklist
          legend={t('create.assign')}
          value={form.getValues().employees}
          onChange={(ids) => form.setFieldValue('employees', ids)}
          disabled={createGroup.isPending}
        />
        {error('employees') && (
          <div role="alert" style={{ color: 'var(--mantine-color-error)' }}>
            {error('employees')}
          </div>
        )}
        <div>
          <Button type="submit" disabled={createGroup.isPending} loading={false}>
            {createGroup.isPending ? t('create.submitting') : t('create.submit')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
