import {
  Alert,
  Anchor,
  Button,
  Fieldset,
  NativeSelect,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { type Cadre, REGISTER_ROLES } from '#shared/constants.ts';
import { type RegisterInput, registerInput } from '#shared/schemas/auth.ts';

import { CadreDesignationFields } from '#web/components/cadre-designation-fields.tsx';
import { DateField } from '#web/components/date-field.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { paths } from '#web/lib/paths.ts';

import { useRegister } from '../api.ts';

type RegisterValues = {
  email: string;
  password: string;
  role: (typeof REGISTER_ROLES)[number];
  about: string;
  personalDetails: { name: string; dob: string; mobile: string; address: string };
  professionalDetails: {
    designation: string;
    cadre: Cadre | '';
    intercom: string;
    internetEmail: string;
    dronaEmail: string;
    pis: string;
    aebasId: string;
  };
  employmentPeriod: { from: string; to: string };
};

const emptyForm: RegisterValues = {
  email: '',
  password: '',
  role: 'employee',
  about: '',
  personalDetails: { name: '', dob: '', mobile: '', address: '' },
  professionalDetails: {
    designation: '',
    cadre: '',
    intercom: '',
    internetEmail: '',
    dronaEmail: '',
    pis: '',
    aebasId: '',
  },
  employmentPeriod: { from: '', to: '' },
};

const today = () => new Date().toISOString().slice(0, 10);

/**
 * 'Register New User' (spec §2, §3 Registration payload): every field, the role choices, cadre → designation lists,
 * and the client messages of spec §5 from the same zod schema the server checks (shared/schemas/auth.ts).
 */
export function RegisterForm() {
  const { t } = useTranslation('auth');
  const register = useRegister();
  const form = useForm<RegisterValues>({
    mode: 'controlled',
    initialValues: emptyForm,
    validate: zodValidate(registerInput),
  });
  const { field } = translatedErrors(form);

  const onSubmit = (values: RegisterValues) =>
    register.mutate(values as RegisterInput, {
      // The banner above the form says it (spec §8 'User saved successfully!') with what comes next: no toast as well.
      onSuccess: () => {
        form.reset();
        window.scrollTo(0, 0); // the note on approval sits above the form
      },
      onError: (err) => {
        if (err instanceof ApiError && err.coded?.code === 'auth.user_exists') {
          form.setFieldError('email', t('register.emailTaken'));
          return;
        }
        applyServerError(form, err);
        notifications.show({ color: 'red', message: serverMessage(err, t('register.failed')) });
      },
    });

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack gap="lg">
        {register.isSuccess && (
          <Alert
            color="green"
            variant="light"
            role="status"
            title={t('register.success')}
            // Green 9 on the light green background is 3.8:1; the title needs 4.5:1 (WCAG 1.4.3).
            styles={{ title: { color: 'var(--mantine-color-gray-9)' } }}
          >
            <Text c="gray.9" size="sm">
              {t('register.awaitingApproval')}
            </Text>
          </Alert>
        )}
        <Fieldset legend={t('register.account')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('fields.email')} type="email" autoComplete="email" required {...field('email')} />
            <PasswordInput
              label={t('fields.password')}
              autoComplete="new-password"
              required
              description={t('register.passwordHint')}
              {...field('password')}
            />
            <NativeSelect
              label={t('fields.role')}
              data={REGISTER_ROLES.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
              {...field('role')}
            />
          </SimpleGrid>
          <Textarea label={t('fields.about')} mt="md" autosize minRows={3} maxRows={8} {...field('about')} />
        </Fieldset>

        <Fieldset legend={t('register.personalDetails')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('fields.name')} autoComplete="name" required {...field('personalDetails.name')} />
            <DateField label={t('fields.dob')} birthDate maxDate={today()} {...field('personalDetails.dob')} />
            <TextInput
              label={t('fields.mobile')}
              type="tel"
              inputMode="numeric"
              autoComplete="tel-national"
              maxLength={10}
              description={t('register.mobileHint')}
              {...field('personalDetails.mobile')}
            />
            <Textarea
              label={t('fields.address')}
              autoComplete="street-address"
              autosize
              minRows={2}
              {...field('personalDetails.address')}
            />
          </SimpleGrid>
        </Fieldset>

        <Fieldset legend={t('register.professionalDetails')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <CadreDesignationFields form={form} field={field} cadreLabel={(c) => t(`cadres.${c}`)} />
            <TextInput label={t('fields.intercom')} {...field('professionalDetails.intercom')} />
            <TextInput label={t('fields.internetEmail')} type="email" {...field('professionalDetails.internetEmail')} />
            <TextInput label={t('fields.dronaEmail')} type="email" {...field('professionalDetails.dronaEmail')} />
            <TextInput label={t('fields.pis')} {...field('professionalDetails.pis')} />
            <TextInput label={t('fields.aebasId')} {...field('professionalDetails.aebasId')} />
          </SimpleGrid>
        </Fieldset>

        <Fieldset legend={t('register.employmentPeriod')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <DateField label={t('fields.from')} {...field('employmentPeriod.from')} />
            <DateField label={t('fields.to')} {...field('employmentPeriod.to')} />
          </SimpleGrid>
        </Fieldset>

        <Button type="submit" loading={register.isPending} size="md">
          {t('register.submit')}
        </Button>
        <Text size="sm" ta="center">
          {t('register.haveAccount')}{' '}
          <Anchor component={Link} to={paths.login} fw={600}>
            {t('register.loginLink')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
