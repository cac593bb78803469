import { Button, Card, Group, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { officeMemberInput, type OfficeMemberJson } from '#shared/schemas/unit.ts';

import { ConfirmDelete, useConfirmedDelete } from '#web/components/confirm-delete.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { OfficeTable } from '#web/components/unit/unit-tables.tsx';
import { applyServerError, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useDeleteOfficeMember, useGroup, useSaveOfficeMember } from '../api.ts';
import { toast, withServer } from './group-parts.tsx';

type OfficeForm = { name: string; designation: string; contactNumber: string; email: string };
const EMPTY: OfficeForm = { name: '', designation: '', contactNumber: '', email: '' };

/** ManageOffice (spec §2): the O/o Group Leader table. Name and designation are required; contact and email optional. */
export function ManageGroupOffice({ groupId }: { groupId: string }) {
  const { t } = useTranslation('groups');
  const group = useGroup(groupId);
  const save = useSaveOfficeMember(groupId);
  const remove = useDeleteOfficeMember(groupId);
  const [editing, setEditing] = useState<OfficeMemberJson | null>(null);
  const form = useForm<OfficeForm>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: zodValidate(officeMemberInput),
  });
  const { error } = translatedErrors(form);

  const reset = () => {
    setEditing(null);
    form.setValues(EMPTY);
    form.clearErrors();
  };
  const edit = (m: OfficeMemberJson) => {
    setEditing(m);
    form.setValues({ name: m.name, designation: m.designation, contactNumber: m.contactNumber, email: m.email });
    form.clearErrors();
    document.getElementById('office-form-heading')?.scrollIntoView({ block: 'start' });
  };

  const submit = form.onSubmit((values) =>
    save.mutate(
      { memberId: editing?._id, input: values },
      {
        onSuccess: () => {
          toast('green', t('office.saved'));
          reset();
        },
        onError: (err) => {
          applyServerError(form, err);
          toast('red', withServer(t('office.saveFailed'), err));
        },
      },
    ),
  );
  const deletion = useConfirmedDelete<OfficeMemberJson>(remove, {
    deleted: (member) => {
      toast('green', t('office.deleted'));
      if (editing?._id === member._id) reset();
    },
    failed: (err) => toast('red', withServer(t('office.deleteFailed'), err)),
  });
  const office = group.data?.officeOfGroup ?? [];

  return (
    <Stack gap="xl">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="office-form-heading">
        <Title order={3} size="h4" mb="md" id="office-form-heading">
          {editing ? t('office.editTitle') : t('office.addTitle')}
        </Title>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t('fields.name')} required {...form.getInputProps('name')} error={error('name')} />
              <TextInput
                label={t('fields.designation')}
                required
                {...form.getInputProps('designation')}
                error={error('designation')}
              />
              <TextInput
                label={t('fields.contactNumber')}
                type="tel"
                {...form.getInputProps('contactNumber')}
                error={error('contactNumber')}
              />
              <TextInput
                label={t('fields.email')}
                type="email"
                {...form.getInputProps('email')}
                error={error('email')}
              />
            </SimpleGrid>
            <Group>
              <Button type="submit" loading={save.isPending}>
                {editing ? t('items.save') : t('office.add')}
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

      <section aria-labelledby="office-list-heading">
        <Title order={3} size="h4" mb="md" id="office-list-heading">
          {t('office.listTitle')}
        </Title>
        {group.isPending ? (
          <PanelLoader />
        ) : group.isError ? (
          <PanelError>{t('errors.office')}</PanelError>
        ) : (
          <OfficeTable
            office={office}
            caption={t('office.listTitle')}
            empty={t('page.noOffice')}
            onEdit={edit}
            onDelete={deletion.ask}
          />
        )}
      </section>
      <ConfirmDelete
        {...deletion.dialog}
        message={t('office.confirmDelete', { name: deletion.toDelete?.name ?? '' })}
        title={t('members.remove')}
        confirmLabel={t('members.remove')}
      />
    </Stack>
  );
}
