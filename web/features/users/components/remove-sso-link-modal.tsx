import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';

import type { ManagedUserJson } from '#shared/schemas/user.ts';

import { ConfirmDelete } from '#web/components/confirm-delete.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';

import { useRemoveSsoLink } from '../api.ts';

/**
 * "Remove single sign-on link" (decision 090): asks first, then the provider identity no longer signs in to the
 * account and the account's sessions end; its portal password, if it has one, still works. The activity log and the
 * audit trail record it.
 */
export function RemoveSsoLinkModal({ user, onClose }: { user: ManagedUserJson; onClose: () => void }) {
  const { t } = useTranslation('people');
  const remove = useRemoveSsoLink();
  const name = user.personalDetails.name;
  return (
    <ConfirmDelete
      opened
      title={t('manage.removeSsoLinkTitle', { name })}
      message={t('manage.removeSsoLinkIntro', { name, issuer: user.ssoIssuer ?? '' })}
      confirmLabel={t('manage.removeSsoLink')}
      loading={remove.isPending}
      onCancel={onClose}
      onConfirm={() =>
        remove.mutate(
          { userId: user._id, input: undefined },
          {
            onSuccess: () => {
              notifications.show({ color: 'green', message: t('manage.ssoLinkRemoved', { name }) });
              onClose();
            },
            onError: (err) => notifications.show({ color: 'red', message: serverMessage(err, t('manage.failed')) }),
          },
        )
      }
    />
  );
}
