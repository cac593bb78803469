import { Button, Fieldset, Group, NativeSelect, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';

import { BLOOD_GROUPS, GENDERS, MARITAL_STATUSES } from '#shared/constants.ts';
import { type ProfileJson, updateProfileInput } from '#shared/schemas/user.ts';

import { CadreDesignationFields } from '#web/components/cadre-designation-fields.tsx';
import { DateField } from '#web/components/date-field.tsx';
import { applyServerError, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';

import { useUpdateProfile } from '../api.ts';
import { type ProfileFormValues, toFormValues, toProfileInput } from '../profile-values.ts';

// A refused list entry (e.g. professionalDetails.skills.2) is shown on the list's box.
const validateProfile = zodValidate(updateProfileInput, {
  toInput: toProfileInput,
  fold: (path) => path.replace(/\.\d+$/, ''),
});

/**
 * Edit Profile mode (spec §2 My profile dashboard): every section with the option lists of spec §5 (cadre →
 * designation, gender, marital status, blood group), Cancel and Save Profile. Changing the cadre clears the
 * designation (spec §4). Validated by the same schema as PUT /api/users/{id}.
 */
export function ProfileForm({
  profile,
  onCancel,
  onSaved,
}: {
  profile: ProfileJson;
  onCancel: () => void;
  onSaved: (saved: ProfileJson) => void;
}) {
  const { t } = useTranslation('people');
  const update = useUpdateProfile(profile._id);
  const form = useForm<ProfileFormValues>({
    mode: 'controlled',
    initialValues: toFormValues(profile),
    validate: validateProfile,
  });

  const { field } = translatedErrors(form);

  const submit = (values: ProfileFormValues) =>
    update.mutate(toProfileInput(values), {
      onSuccess: (saved) => {
        notifications.show({ color: 'green', message: t('profile.updated') });
        onSaved(saved);
      },
      onError: (err) => {
        applyServerError(form, err, { fold: (path) => path.replace(/\.\d+$/, '') });
        notifications.show({ color: 'red', message: t('profile.updateFailed') });
      },
    });

  const choices = (list: readonly string[], labels?: string) => [
    { value: '', label: t('options.select') },
    ...list.map((value) => ({ value, label: labels ? t(`${labels}.${value}`) : value })),
  ];

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label={t('profile.editProfile')}>
      <Stack gap="lg">
        <Fieldset legend={t('profile.personalDetails')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('fields.name')}
              required
              autoComplete="name"
              maxLength={200}
              {...field('personalDetails.name')}
            />
            <DateField label={t('fields.dob')} birthDate {...field('personalDetails.dob')} />
            <TextInput
              label={t('fields.mobile')}
              inputMode="numeric"
              autoComplete="tel"
              maxLength={10}
              {...field('personalDetails.mobile')}
            />
            <NativeSelect
              label={t('fields.gender')}
              data={choices(GENDERS, 'options.genders')}
              {...field('personalDetails.gender')}
            />
            <NativeSelect
              label={t('fields.maritalStatus')}
              data={choices(MARITAL_STATUSES, 'options.maritalStatuses')}
              {...field('personalDetails.maritalStatus')}
            />
            <NativeSelect
              label={t('fields.bloodGroup')}
              data={choices(BLOOD_GROUPS)}
              {...field('personalDetails.bloodGroup')}
            />
          </SimpleGrid>
          <Textarea mt="sm" label={t('fields.address')} autosize minRows={2} {...field('personalDetails.address')} />
          <Fieldset legend={t('fields.emergencyContact')} mt="md" variant="filled">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput label={t('fields.emergencyName')} {...field('personalDetails.emergencyContact.name')} />
              <TextInput
                label={t('fields.emergencyRelationship')}
                {...field('personalDetails.emergencyContact.relationship')}
              />
              <TextInput
                label={t('fields.emergencyMobile')}
                inputMode="numeric"
                maxLength={10}
                {...field('personalDetails.emergencyContact.mobile')}
              />
            </SimpleGrid>
          </Fieldset>
        </Fieldset>

        <Fieldset legend={t('profile.professionalDetails')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <CadreDesignationFields
              form={form}
              field={field}
              cadreLabel={(c) => t(`options.cadres.${c}`)}
              designationMaxLength={200}
            />
            <TextInput label={t('fields.intercom')} {...field('professionalDetails.intercom')} />
            <TextInput label={t('fields.internetEmail')} type="email" {...field('professionalDetails.internetEmail')} />
            <TextInput label={t('fields.dronaEmail')} type="email" {...field('professionalDetails.dronaEmail')} />
            <TextInput label={t('fields.pis')} {...field('professionalDetails.pis')} />
            <TextInput label={t('fields.aebasId')} {...field('professionalDetails.aebasId')} />
            <DateField label={t('fields.joiningDate')} {...field('professionalDetails.joiningDate')} />
          </SimpleGrid>
          <TextInput
            mt="sm"
            label={t('fields.skills')}
            description={t('profile.skillsHint')}
            {...field('professionalDetails.skills')}
          />
          <Textarea
            mt="sm"
            label={t('fields.qualifications')}
            description={t('profile.qualificationsHint')}
            autosize
            minRows={2}
            {...field('professionalDetails.qualifications')}
          />
        </Fieldset>

        <Fieldset legend={t('profile.aboutMe')}>
          <Textarea label={t('fields.about')} autosize minRows={3} maxLength={5000} {...field('about')} />
        </Fieldset>

        <Fieldset legend={t('profile.employmentPeriod')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <DateField label={t('fields.from')} {...field('employmentPeriod.from')} />
            <DateField label={t('fields.to')} {...field('employmentPeriod.to')} />
          </SimpleGrid>
        </Fieldset>

        <Fieldset legend={t('profile.socialLinks')}>
          <Text size="sm" c="gray.8" mb="xs">
            {t('profile.linkHint')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {(['linkedin', 'twitter', 'facebook', 'github'] as const).map((site) => (
              <TextInput
                key={site}
                label={t(`fields.${site}`)}
                type="url"
                placeholder="https://"
                {...field(`socialLinks.${site}`)}
              />
            ))}
          </SimpleGrid>
        </Fieldset>

        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={update.isPending}>
            {t('profile.cancel')}
          </Button>
          <Button type="submit" loading={update.isPending}>
            {t('profile.saveProfile')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
