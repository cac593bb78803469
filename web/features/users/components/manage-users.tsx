import {
  Alert,
  Badge,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { type Role, ROLES, USER_STATUSES, type UserStatus } from '#shared/constants.ts';

import { EmptyState } from '#web/components/empty-state.tsx';
import { Pager } from '#web/components/pager.tsx';
import { ScrollTable } from '#web/components/scroll-table.tsx';
import { getUserId } from '#web/lib/auth-storage.ts';

import { type ManageUsersFilter, useGroupOptions, useManagedUsers } from '../api.ts';
import { AccessModal } from './access-modal.tsx';
import { DeactivateModal } from './deactivate-modal.tsx';
import { DocumentsModal } from './documents-modal.tsx';
import { type Dialog, DocumentsLink, Period, StatusBadge, UserActions, UserAvatar } from './manage-users-cells.tsx';
import { RemoveSsoLinkModal } from './remove-sso-link-modal.tsx';
import { ResetPasswordModal } from './reset-password-modal.tsx';
import { ResetSecondFactorModal } from './reset-second-factor-modal.tsx';

export const MANAGE_USERS_PAGE_SIZE = 20;

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
