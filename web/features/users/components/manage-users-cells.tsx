import { Anchor, Avatar, Badge, Button, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';

import type { UserStatus } from '#shared/constants.ts';
import type { ManagedUserJson, ProfileJson } from '#shared/schemas/user.ts';

import { getUserId } from '#web/lib/auth-storage.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useReactivateUser, useSetClearance } from '../api.ts';
import { initialsOf } from './profile-photo.tsx';
import { reasonOf } from './user-modal.tsx';

// The cells of Manage Users' table and cards (manage-users.tsx): photo, employment period, status, documents and the
// actions menu, each rendered the same in the table (wide screens) and in the cards (phones).

export type Dialog = {
  kind: 'access' | 'deactivate' | 'reset' | 'resetSecondFactor' | 'documents' | 'removeSsoLink';
  user: ManagedUserJson;
} | null;

/** A user's photo, or the initials of the name. */
export function UserAvatar({ user }: { user: ProfileJson }) {
  const { t } = useTranslation('people');
  const name = user.personalDetails.name;
  return (
    <Avatar src={user.photo} alt={user.photo ? t('profile.photoOf', { name }) : undefined} radius="xl" color="navy">
      {initialsOf(name)}
    </Avatar>
  );
}

/** Badge colour and a text shade dark enough on the light badge and striped rows (WCAG 1.4.3). */
const statusColor: Record<UserStatus, { color: string; text: string }> = {
  approved: { color: 'green', text: '#1e5631' },
  pending: { color: 'yellow', text: '#5c4300' },
  rejected: { color: 'red', text: '#8a1c1c' },
  deactivated: { color: 'gray', text: '#343a40' },
};

export function UserActions({ user, onOpen }: { user: ManagedUserJson; onOpen: (dialog: Dialog) => void }) {
  const { t } = useTranslation('people');
  const reactivate = useReactivateUser();
  const clearance = useSetClearance();
  const onClearance = () =>
    clearance.mutate(
      { userId: user._id, input: { cleared: !user.classifiedClearance } },
      {
        onSuccess: () =>
          notifications.show({
            color: 'green',
            message: user.classifiedClearance ? t('manage.clearanceWithdrawn') : t('manage.clearanceGiven'),
          }),
        onError: (err) => notifications.show({ color: 'red', message: reasonOf(err, t) }),
      },
    );
  const isSelf = user._id === getUserId();
  const account = user.status === 'approved' || user.status === 'deactivated';
  const onReactivate = () =>
    reactivate.mutate(
      { userId: user._id, input: undefined },
      {
        onSuccess: () => notifications.show({ color: 'green', message: t('manage.reactivated') }),
        onError: (err) => notifications.show({ color: 'red', message: reasonOf(err, t) }),
      },
    );
  return (
    <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button
          size="xs"
          variant="light"
          aria-label={t('manage.actionsFor', { name: user.personalDetails.name })}
          loading={reactivate.isPending || clearance.isPending}
        >
          {t('manage.actions')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {account && <Menu.Item onClick={() => onOpen({ kind: 'access', user })}>{t('manage.changeAccess')}</Menu.Item>}
        <Menu.Item onClick={() => onOpen({ kind: 'documents', user })}>{t('manage.documents')}</Menu.Item>
        {account && <Menu.Item onClick={() => onOpen({ kind: 'reset', user })}>{t('manage.resetPassword')}</Menu.Item>}
        {account && !isSelf && (
          <Menu.Item onClick={() => onOpen({ kind: 'resetSecondFactor', user })}>
            {t('manage.resetSecondFactor')}
          </Menu.Item>
        )}
        {user.status === 'approved' && !isSelf && (
          <Menu.Item color="red.9" onClick={() => onOpen({ kind: 'deactivate', user })}>
            {t('manage.deactivate')}
          </Menu.Item>
        )}
        {user.status === 'deactivated' && <Menu.Item onClick={onReactivate}>{t('manage.reactivate')}</Menu.Item>}
        {user.ssoIssuer && (
          <Menu.Item color="red.9" onClick={() => onOpen({ kind: 'removeSsoLink', user })}>
            {t('manage.removeSsoLink')}
          </Menu.Item>
        )}
        {user.status === 'approved' && (
          <Menu.Item onClick={onClearance}>
            {user.classifiedClearance ? t('manage.withdrawClearance') : t('manage.giveClearance')}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Employment period as "01 Jan 2020 – Present", or 'Not provided'. */
export function Period({ user }: { user: ProfileJson }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('people');
  const { from, to } = user.employmentPeriod;
  return <>{from || to ? `${formatDate(from, '—')} – ${formatDate(to, t('present'))}` : t('notProvided')}</>;
}

export function StatusBadge({ user }: { user: ManagedUserJson }) {
  const { t } = useTranslation('people');
  return (
    <>
      {user.classifiedClearance && (
        <Badge color="#9a3412" variant="outline" mb={4}>
          {t('manage.cleared')}
        </Badge>
      )}
      <Badge color={statusColor[user.status].color} c={statusColor[user.status].text} variant="light">
        {t(`statuses.${user.status}`)}
      </Badge>
      {user.ssoIssuer && (
        // Linked to single sign-on (decision 090); the provider's issuer on hover.
        <Badge color="navy" variant="outline" mt={4} title={user.ssoIssuer} display="block">
          {t('manage.ssoLinked')}
        </Badge>
      )}
      {user.statusReason && (
        <Text size="xs" c="gray.8" maw={200}>
          {user.statusReason}
        </Text>
      )}
    </>
  );
}

export function DocumentsLink({ user, onOpen }: { user: ManagedUserJson; onOpen: (dialog: Dialog) => void }) {
  const { t } = useTranslation('people');
  if (!user.documents.length) return <>{t('manage.noDocuments')}</>;
  return (
    <Anchor component="button" type="button" size="sm" onClick={() => onOpen({ kind: 'documents', user })}>
      {t('manage.documentsCount', { count: user.documents.length })}
    </Anchor>
  );
}
