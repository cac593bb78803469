import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';

import type { ProfileJson } from '#shared/schemas/user.ts';

import { ConfirmDelete } from '#web/components/confirm-delete.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';

import { useResetSecondFactor } from '../api.ts';

/**
 * "Reset second factor" (decision 064): asks first, then removes the person's authenticator apps, passkeys and
 * recovery codes and ends their sessions; they set up a new one at their next sign-in. The activity log records it.
 */
export function ResetSecondFactorModal({ user, onClose }: { user: ProfileJson; onClose: () => void }) {
  const { t } = useTranslation('people');
  const reset = useResetSecondFactor();
  const name = user.personalDetails.name;
  return (
    <ConfirmDelete
      opened
      title={t('manage.resetSecondFactorTitle', { name })}
      message={t('manage.resetSecondFactorIntro', { name })}
      confirmLabel={t('manage.resetSecondFactor')}
      loading={reset.isPending}
      onCancel={onClose}
      onConfirm={() =>
        reset.mutate(
          { userId: user._id, input: undefined },
          {
            onSuccess: () => {
              notifications.show({ color: 'green', message: t('manage.secondFactorReset', { name }) });
              onClose();
            },
            onError: (err) => notifications.show({ color: 'red', message: serverMessage(err, t('manage.failed')) }),
          },
        )
      }
    />
  );
}
