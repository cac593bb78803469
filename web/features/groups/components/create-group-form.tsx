import { Button, Stack, TextInput, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { createGroupInput, type GroupJson } from '#shared/schemas/group.ts';
import { translateMessage } from '#web/i18n/index.ts';
import { ApiError } from '#web/lib/api-client.ts';
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
    validate: schemaResolver(createGroupInput, { sync: true }),
  });
  const error = (path: keyof CreateForm) => {
    const message = form.errors[path];
    return typeof message === 'string' ? translateMessage(message, 'groups') : message;
  };

  const submit = form.onSubmit((values) =>
    createGroup.mutate(values, {
      onSuccess: (group) => {
        toast('green', t('create.created'));
        form.reset();
        onCreated(group);
      },
      onError: (err) => {
        // spec §8: the server's error field, else 'Failed to create group. Please try again.'
        const message =
          err instanceof ApiError && err.message ? translateMessage(err.message, 'groups') : t('create.failed');
        if (err instanceof ApiError && err.field && err.field.split('.')[0]! in EMPTY)
          form.setFieldError(err.field.split('.')[0]!, message);
        toast('red', message);
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
