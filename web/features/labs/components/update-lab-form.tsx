import {
  ActionIcon,
  Button,
  Card,
  Center,
  Fieldset,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';

import { type LabJson, type UpdateLabInput, updateLabInput } from '#shared/schemas/lab.ts';

import { PanelError } from '#web/components/panel-error.tsx';
import { ContactInfoFieldset } from '#web/components/unit/contact-info-fieldset.tsx';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useLab, useUpdateLab } from '../api.ts';

const valuesOf = (lab: LabJson): UpdateLabInput => ({
  name: lab.name,
  domain: lab.domain,
  vision: lab.vision,
  mission: lab.mission,
  about: lab.about,
  LabHistoryDetails: lab.LabHistoryDetails,
  contactInfo: lab.contactInfo.map(({ type, label, value }) => ({ type, label, value })),
  officeOfDirector: lab.officeOfDirector.map(({ name, designation, contactNumber, email }) => ({
    name,
    designation,
    contactNumber,
    email,
  })),
});

function Form({ lab }: { lab: LabJson }) {
  const { t } = useTranslation('lab');
  const update = useUpdateLab(lab._id);
  const form = useForm<UpdateLabInput>({
    mode: 'controlled',
    initialValues: valuesOf(lab),
    validate: zodValidate(updateLabInput),
  });
  const { error } = translatedErrors(form);
  const onSubmit = (values: UpdateLabInput) =>
    update.mutate(values, {
      // The saved record comes back with a new updatedAt, which remounts the form with it (key below).
      onSuccess: () => notifications.show({ color: 'green', message: t('update.success') }),
      onError: (err) => {
        applyServerError(form, err);
        const detail = serverMessage(err);
        notifications.show({ color: 'red', message: detail ? `${t('update.failed')} ${detail}` : t('update.failed') });
      },
    });
  const office = form.getValues().officeOfDirector ?? [];

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('fields.labName')} required {...form.getInputProps('name')} error={error('name')} />
          <TextInput label={t('fields.domain')} required {...form.getInputProps('domain')} error={error('domain')} />
        </SimpleGrid>
        <Textarea
          label={t('fields.vision')}
          required
          autosize
          minRows={3}
          {...form.getInputProps('vision')}
          error={error('vision')}
        />
        <Textarea
          label={t('fields.mission')}
          required
          autosize
          minRows={3}
          {...form.getInputProps('mission')}
          error={error('mission')}
        />
        <Textarea
          label={t('fields.about')}
          description={t('update.pointsHint')}
          required
          autosize
          minRows={5}
          {...form.getInputProps('about')}
          error={error('about')}
        />
        <Textarea
          label={t('fields.history')}
          description={t('update.pointsHint')}
          required
          autosize
          minRows={5}
          {...form.getInputProps('LabHistoryDetails')}
          error={error('LabHistoryDetails')}
        />

        <ContactInfoFieldset form={form} legend={t('update.contactInfo')} empty={t('home.noContact')} error={error} />

        <Fieldset legend={t('tabs.office')}>
          <Stack gap="sm">
            {office.length === 0 && <Text c="gray.7">{t('home.noOffice')}</Text>}
            {office.map((_, index) => (
              <Group key={form.key(`officeOfDirector.${index}`)} align="flex-start" wrap="wrap" gap="sm">
                <TextInput
                  label={t('fields.name')}
                  required
                  style={{ flex: '1 1 10rem' }}
                  {...form.getInputProps(`officeOfDirector.${index}.name`)}
                  error={error(`officeOfDirector.${index}.name`)}
                />
                <TextInput
                  label={t('fields.designation')}
                  required
                  style={{ flex: '1 1 10rem' }}
                  {...form.getInputProps(`officeOfDirector.${index}.designation`)}
                  error={error(`officeOfDirector.${index}.designation`)}
                />
                <TextInput
                  label={t('fields.contactNumber')}
                  style={{ flex: '1 1 8rem' }}
                  {...form.getInputProps(`officeOfDirector.${index}.contactNumber`)}
                />
                <TextInput
                  label={t('fields.email')}
                  type="email"
                  style={{ flex: '1 1 12rem' }}
                  {...form.getInputProps(`officeOfDirector.${index}.email`)}
                  error={error(`officeOfDirector.${index}.email`)}
                />
                <ActionIcon
                  variant="subtle"
                  color="red.9"
                  size="lg"
                  mt={26}
                  onClick={() => form.removeListItem('officeOfDirector', index)}
                  aria-label={t('update.removeOffice', { number: index + 1 })}
                >
                  ✕
                </ActionIcon>
              </Group>
            ))}
            <div>
              <Button
                variant="light"
                onClick={() =>
                  form.insertListItem('officeOfDirector', { name: '', designation: '', contactNumber: '', email: '' })
                }
              >
                {t('update.addOffice')}
              </Button>
            </div>
          </Stack>
        </Fieldset>

        <Group>
          <Button type="submit" loading={update.isPending}>
            {t('update.submit')}
          </Button>
          <Button variant="default" onClick={() => form.reset()} disabled={update.isPending}>
            {t('update.reset')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Update Lab Information (spec §2 Lab admin panel, Manage Labs): the lab's fields, Contact Us and O/o Director. */
export function UpdateLabForm({ labId }: { labId: string }) {
  const { t } = useTranslation('lab');
  const lab = useLab(labId);
  if (lab.isPending)
    return (
      <Center py="xl" role="status">
        <Loader size="sm" role="img" aria-label={t('loading')} />
      </Center>
    );
  if (lab.isError) return <PanelError>{t('errors.labInformation')}</PanelError>;
  return (
    <Card withBorder radius="md" padding="lg">
      <Form key={lab.data.updatedAt} lab={lab.data} />
    </Card>
  );
}
