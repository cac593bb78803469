import {
  Alert,
  Anchor,
  Avatar,
  Badge,
  Button,
  Group,
  Loader,
  Menu,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { type Role, ROLES, USER_STATUSES, type UserStatus } from '#shared/constants.ts';
import type { ManagedUserJson, ProfileJson } from '#shared/schemas/user.ts';

import { EmptyState } from '#web/components/empty-state.tsx';
import { Pager } from '#web/components/pager.tsx';
import { ScrollTable } from '#web/components/scroll-table.tsx';
import { getUserId } from '#web/lib/auth-storage.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import {
  type ManageUsersFilter,
  useGroupOptions,
  useManagedUsers,
  useReactivateUser,
  useSetClearance,
} from '../api.ts';
import { AccessModal } from './access-modal.tsx';
import { DeactivateModal } from './deactivate-modal.tsx';
import { DocumentsModal } from './documents-modal.tsx';
import { initialsOf } from './profile-photo.tsx';
import { RemoveSsoLinkModal } from './remove-sso-link-modal.tsx';
import { ResetPasswordModal } from './reset-password-modal.tsx';
import { ResetSecondFactorModal } from './reset-second-factor-modal.tsx';
import { reasonOf } from './user-modal.tsx';

export const MANAGE_USERS_PAGE_SIZE = 20;

type Dialog = {
  kind: 'access' | 'deactivate' | 'reset' | 'resetSecondFactor' | 'documents' | 'removeSsoLink';
  user: ManagedUserJson;
} | null;

/** A user's photo, or the initials of the name. */
function UserAvatar({ user }: { user: ProfileJson }) {
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

function UserActions({ user, onOpen }: { user: ManagedUserJson; onOpen: (dialog: Dialog) => void }) {
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
function Period({ user }: { user: ProfileJson }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('people');
  const { from, to } = user.employmentPeriod;
  return <>{from || to ? `${formatDate(from, '—')} – ${formatDate(to, t('present'))}` : t('notProvided')}</>;
}

function StatusBadge({ user }: { user: ManagedUserJson }) {
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

function DocumentsLink({ user, onOpen }: { user: ManagedUserJson; onOpen: (dialog: Dialog) => void }) {
  const { t } = useTranslation('people');
  if (!user.documents.length) return <>{t('manage.noDocuments')}</>;
  return (
    <Anchor component="button" type="button" size="sm" onClick={() => onOpen({ kind: 'documents', user })}>
      {t('manage.documentsCount', { count: user.documents.length })}
    </Anchor>
  );
}

/**
 * Manage Users of the lab admin panel (spec §2): a table of photo, name, email, role, group, employment period and
 * documents, searched, filtered and paged by the server. An admin changes a user's role and group, deactivates and
 * reactivates the account, resets the password, and uploads or removes documents on the record. Self-contained, so
 * the admin layout can render it as it is.
 */
export function ManageUsers() {
  const { t } = useTranslation(['people', 'common']);
  const groups = useGroupOptions();
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text.trim(), 300);
  const [status, setStatus] = useState<UserStatus | ''>('');
  const [role, setRole] = useState<Role | ''>('');
  const [groupId, setGroupId] = useState('');
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<Dialog>(null);
  const filter: ManageUsersFilter = { q, status, role, groupId };
  const users = useManagedUsers(filter, { limit: MANAGE_USERS_PAGE_SIZE, offset: (page - 1) * MANAGE_USERS_PAGE_SIZE });
  const pages = Math.max(1, Math.ceil((users.data?.total ?? 0) / MANAGE_USERS_PAGE_SIZE));
  const me = getUserId();
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  // The dialog shows the row as it is now (after an upload or a change the page reloads).
  const current = dialog ? (users.data?.items.find((u) => u._id === dialog.user._id) ?? dialog.user) : null;

  return (
    <Stack gap="md">
      <form role="search" aria-label={t('manage.title')} onSubmit={(event) => event.preventDefault()}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          <TextInput
            label={t('manage.search')}
            type="search"
            value={text}
            maxLength={200}
            onChange={(e) => changed(setText)(e.currentTarget.value)}
          />
          <NativeSelect
            label={t('fields.status')}
            value={status}
            onChange={(e) => changed(setStatus)(e.currentTarget.value as UserStatus | '')}
            data={[
              { value: '', label: t('manage.allStatuses') },
              ...USER_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) })),
            ]}
          />
          <NativeSelect
            label={t('fields.role')}
            value={role}
            onChange={(e) => changed(setRole)(e.currentTarget.value as Role | '')}
            data={[
              { value: '', label: t('manage.allRoles') },
              ...ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) })),
            ]}
          />
          <NativeSelect
            label={t('fields.group')}
            value={groupId}
            onChange={(e) => changed(setGroupId)(e.currentTarget.value)}
            data={[
              { value: '', label: t('manage.allGroups') },
              ...(groups.data ?? []).map((g) => ({ value: g._id, label: g.name })),
            ]}
          />
        </SimpleGrid>
      </form>

      <Text c="gray.8" role="status">
        {users.isPending ? t('manage.loading') : users.data ? t('manage.count', { count: users.data.total }) : ''}
      </Text>

      {users.isPending ? (
        <Loader aria-hidden="true" />
      ) : users.isError ? (
        <Alert color="red" variant="light" role="alert">
          <Text c="gray.9">{t('manage.loadFailed')}</Text>
        </Alert>
      ) : users.data.items.length === 0 ? (
        <EmptyState>{t('manage.empty')}</EmptyState>
      ) : (
        <>
          <Stack
            gap="sm"
            hiddenFrom="md"
            component="ul"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
            aria-label={t('manage.tableCaption')}
          >
            {users.data.items.map((user) => {
              const name = user.personalDetails.name;
              return (
                <Paper key={user._id} component="li" withBorder radius="md" p="sm">
                  <Stack gap="xs">
                    <Group wrap="nowrap" align="flex-start" miw={0}>
                      <UserAvatar user={user} />
                      <Stack gap={2} miw={0}>
                        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                          {name}
                        </Text>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {user.email}
                        </Text>
                        <Text size="sm">
                          {t(`roles.${user.role}`)} · {user.group?.name ?? t('manage.noGroup')}
                        </Text>
                        <Text size="sm" c="gray.8">
                          {t('fields.employmentPeriod')}: <Period user={user} />
                        </Text>
                        <Text size="sm" c="gray.8" component="div">
                          {t('fields.documents')}: <DocumentsLink user={user} onOpen={setDialog} />
                        </Text>
                        <div>
                          <StatusBadge user={user} />
                        </div>
                      </Stack>
                    </Group>
                    <Group justify="flex-end">
                      <UserActions user={user} onOpen={setDialog} />
                    </Group>
                  </Stack>
                </Paper>
              );
            })}
          </Stack>
          <ScrollTable label={t('manage.tableCaption')} minWidth={900} visibleFrom="md">
            <Table
              striped
              fz="sm"
              verticalSpacing="xs"
              horizontalSpacing="xs"
              // Not faded while the next answer loads: faded grey emails and badges fell below 4.5:1.
              aria-busy={users.isPlaceholderData}
            >
              <Table.Caption>{t('manage.tableCaption')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('fields.photo')}</Table.Th>
                  <Table.Th scope="col">
                    {t('fields.name')} / {t('fields.email')}
                  </Table.Th>
                  <Table.Th scope="col">{t('fields.role')}</Table.Th>
                  <Table.Th scope="col">{t('fields.group')}</Table.Th>
                  <Table.Th scope="col">{t('fields.employmentPeriod')}</Table.Th>
                  <Table.Th scope="col">{t('fields.documents')}</Table.Th>
                  <Table.Th scope="col" style={{ minWidth: 120 }}>
                    {t('fields.status')}
                  </Table.Th>
                  <Table.Th scope="col">{t('manage.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {users.data.items.map((user) => {
                  const name = user.personalDetails.name;
                  return (
                    <Table.Tr key={user._id}>
                      <Table.Td>
                        <UserAvatar user={user} />
                      </Table.Td>
                      {/* Name with the email under it, unbroken: a column of its own broke emails letter by letter. */}
                      <Table.Td>
                        <Text inherit fw={600}>
                          {name}{' '}
                          {user._id === me && (
                            <Badge size="xs" variant="outline" color="navy">
                              {t('manage.you')}
                            </Badge>
                          )}
                        </Text>
                        <Text size="xs" c="gray.8" style={{ whiteSpace: 'nowrap' }}>
                          {user.email}
                        </Text>
                      </Table.Td>
                      <Table.Td>{t(`roles.${user.role}`)}</Table.Td>
                      <Table.Td>{user.group?.name ?? t('manage.noGroup')}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <Period user={user} />
                      </Table.Td>
                      <Table.Td>
                        <DocumentsLink user={user} onOpen={setDialog} />
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge user={user} />
                      </Table.Td>
                      <Table.Td>
                        <UserActions user={user} onOpen={setDialog} />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        </>
      )}

      <Pager total={pages} value={page} onChange={setPage} label={t('manage.pages')} />

      {dialog && current && dialog.kind === 'access' && (
        <AccessModal user={current} groups={groups.data ?? []} onClose={() => setDialog(null)} />
      )}
      {dialog && current && dialog.kind === 'deactivate' && (
        <DeactivateModal user={current} onClose={() => setDialog(null)} />
      )}
      {dialog && current && dialog.kind === 'reset' && (
        <ResetPasswordModal user={current} onClose={() => setDialog(null)} />
      )}
      {dialog && current && dialog.kind === 'resetSecondFactor' && (
        <ResetSecondFactorModal user={current} onClose={() => setDialog(null)} />
      )}
      {dialog && current && dialog.kind === 'removeSsoLink' && (
        <RemoveSsoLinkModal user={current} onClose={() => setDialog(null)} />
      )}
      {dialog && current && dialog.kind === 'documents' && (
        <DocumentsModal user={current} onClose={() => setDialog(null)} />
      )}
    </Stack>
  );
}
