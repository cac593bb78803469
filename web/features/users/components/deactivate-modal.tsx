import { Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { deactivateUserInput, type ProfileJson } from '#shared/schemas/user.ts';
import { translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { useDeactivateUser } from '../api.ts';
import { reasonOf, doneThen, UserFormModal } from './user-modal.tsx';

/** Deactivate an account with an optional reason (spec §2 Manage Users). */
export function DeactivateModal({ user, onClose }: { user: ProfileJson; onClose: () => void }) {
  const { t } = useTranslation('people');
  const deactivate = useDeactivateUser();
  const form = useForm({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: zodValidate(deactivateUserInput),
  });
  const { field } = translatedErrors(form, 'people');
  const submit = form.onSubmit((values) =>
    deactivate.mutate(
      { userId: user._id, input: values },
      {
        onSuccess: doneThen(t('manage.deactivated'), onClose),
        onError: (err) => notifications.show({ color: 'red', message: reasonOf(err, t) }),
      },
    ),
  );
  return (
    <UserFormModal
      title={t('manage.deactivateTitle', { name: user.personalDetails.name })}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('manage.deactivate')}
      submitColor="red.9"
      pending={deactivate.isPending}
      focusCancel
    >
      <Text size="sm">{t('manage.deactivateIntro')}</Text>
      <Textarea label={t('manage.reasonOptional')} autosize minRows={2} maxLength={500} {...field('reason')} />
    </UserFormModal>
  );
}
