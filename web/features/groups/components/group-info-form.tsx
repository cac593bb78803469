import { useEffect } from 'react';
import { Button, Group, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { CONTACT_TYPES } from '#shared/constants.ts';
import { updateGroupInput, type GroupJson } from '#shared/schemas/group.ts';
import { PanelError } from '#web/components/panel-error.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { ContactInfoFieldset } from '#web/components/unit/contact-info-fieldset.tsx';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { useGroupForEdit, useUpdateGroup } from '../api.ts';
import { isForbidden, toast } from './group-parts.tsx';

type ContactRow = { type: (typeof CONTACT_TYPES)[number]; label: string; value: string };
type InfoForm = {
  name: string;
  description: string;
  about: string;
  vision: string;
  mission: string;
  GroupHistoryDetails: string;
  contactInfo: ContactRow[];
};

const formOf = (g: GroupJson): InfoForm => ({
  name: g.name,
  description: g.description,
  about: g.about,
  vision: g.vision,
  mission: g.mission,
  GroupHistoryDetails: g.GroupHistoryDetails,
  contactInfo: g.contactInfo.map(({ type, label, value }) => ({ type, label, value })),
});

export interface GroupInfoFormProps {
  groupId: string;
  /** Called after a successful save (the Edit Group screen returns to the group page). */
  onSaved?: (group: GroupJson) => void;
  onCancel?: () => void;
}

/**
 * The group information editor (spec §2 Edit Group and the admin panel's Manage Groups): name (required), description,
 * about, vision, mission, history and the Contact Us entries, with 'Save Changes'. Admins and the group's current
 * associate director may save; others are told they may not.
 */
export function GroupInfoForm({ groupId, onSaved, onCancel }: GroupInfoFormProps) {
  const { t } = useTranslation('groups');
  const group = useGroupForEdit(groupId);
  const update = useUpdateGroup(groupId);
  const form = useForm<InfoForm>({
    mode: 'controlled',
    initialValues: {
      name: '',
      description: '',
      about: '',
      vision: '',
      mission: '',
      GroupHistoryDetails: '',
      contactInfo: [],
    },
    validate: zodValidate(updateGroupInput),
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

  if (group.isPending) return <PanelLoader />;
  if (group.isError)
    return <PanelError>{isForbidden(group.error) ? t('edit.notAllowed') : t('edit.loadFailed')}</PanelError>;

  const { error } = translatedErrors(form, 'groups');

  const submit = form.onSubmit((values) =>
    update.mutate(values, {
      onSuccess: (saved) => {
        toast('green', t('edit.updated'));
        onSaved?.(saved);
      },
      onError: (err) => {
        const detail = serverMessage(err, 'groups');
        applyServerError(form, err);
        toast('red', detail ? `${t('edit.failed')}: ${detail}` : t('edit.failed'));
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
        <Textarea label={t('fields.about')} rows={5} {...form.getInputProps('about')} error={error('about')} />
        <Textarea label={t('fields.vision')} rows={3} {...form.getInputProps('vision')} error={error('vision')} />
        <Textarea label={t('fields.mission')} rows={3} {...form.getInputProps('mission')} error={error('mission')} />
        <Textarea
          label={t('fields.history')}
          rows={5}
          {...form.getInputProps('GroupHistoryDetails')}
          error={error('GroupHistoryDetails')}
        />
        <ContactInfoFieldset form={form} legend={t('edit.contactTitle')} empty={t('edit.noContacts')} error={error} />
        <Group>
          <Button type="submit" loading={update.isPending}>
            {t('edit.save')}
          </Button>
          {onCancel && (
            <Button variant="default" onClick={onCancel} disabled={update.isPending}>
              {t('edit.cancel')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
