import { Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { deactivateUserInput, type ProfileJson } from '#shared/schemas/user.ts';

import { useDeactivateUser } from '../api.ts';
import { UserFormModal, useUserDialogForm } from './user-modal.tsx';

/** Deactivate an account with an optional reason (spec §2 Manage Users). */
export function DeactivateModal({ user, onClose }: { user: ProfileJson; onClose: () => void }) {
  const { t } = useTranslation('people');
  const deactivate = useDeactivateUser();
  const { field, submit } = useUserDialogForm({
    initialValues: { reason: '' },
    schema: deactivateUserInput,
    send: (input, callbacks) => deactivate.mutate({ userId: user._id, input }, callbacks),
    doneText: t('manage.deactivated'),
    onClose,
  });
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
