import { useState, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Avatar,
  Badge,
  Button,
  FileInput,
  Group,
  Loader,
  Menu,
  Modal,
  Paper,
  NativeSelect,
  PasswordInput,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import {
  acceptFor,
  APPROVAL_ROLES,
  FILE_TYPES,
  ROLES,
  USER_STATUSES,
  type Role,
  type UserStatus,
} from '#shared/constants.ts';
import { formatDate } from '#shared/format.ts';
import type { GroupNameJson } from '#shared/schemas/group.ts';
import {
  deactivateUserInput,
  resetPasswordInput,
  updateUserAccessInput,
  type ManagedUserJson,
  type ProfileJson,
  type UserDocumentJson,
} from '#shared/schemas/user.ts';
import { ConfirmDelete } from '#web/components/confirm-delete.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { ScrollTable } from '#web/components/scroll-table.tsx';
import { getUserId } from '#web/lib/auth-storage.ts';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import {
  useDeactivateUser,
  useGroupOptions,
  useManagedUsers,
  useReactivateUser,
  useSetClearance,
  useRemoveUserDocument,
  useResetPassword,
  useUpdateUserAccess,
  useUploadUserDocument,
  type ManageUsersFilter,
} from '../api.ts';
import { Pager } from './pager.tsx';
import { initialsOf } from './profile-photo.tsx';

export const MANAGE_USERS_PAGE_SIZE = 20;

type Translate = ReturnType<typeof useTranslation>['t'];
type Dialog = { kind: 'access' | 'deactivate' | 'reset' | 'documents'; user: ProfileJson } | null;

/** The server's sentence in the current language, else the screen's own words. */
const reasonOf = (err: unknown, t: Translate) => serverMessage(err, 'people', t('manage.failed'));

/** onSuccess of a dialog's save: say so, then close the dialog. */
const doneThen = (message: string, onClose: () => void) => () => {
  notifications.show({ color: 'green', message });
  onClose();
};

/** A dialog about one user, closed by Esc, the × ('Close') or its own buttons. */
function UserModal({
  title,
  onClose,
  opened = true,
  size,
  children,
}: {
  title: string;
  onClose: () => void;
  opened?: boolean;
  size?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('people');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('approval.close') }}
      title={title}
      size={size}
      centered
    >
      {children}
    </Modal>
  );
}

/** A dialog holding a form: its fields, then Cancel and the submit button. */
function UserFormModal({
  title,
  onClose,
  onSubmit,
  submitLabel,
  submitColor,
  pending,
  focusCancel,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  submitLabel: string;
  submitColor?: string;
  pending: boolean;
  /** Start on Cancel (a dialog that takes something away). */
  focusCancel?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('people');
  return (
    <UserModal title={title} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus={focusCancel || undefined}>
              {t('manage.cancel')}
            </Button>
            <Button type="submit" color={submitColor} loading={pending}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </UserModal>
  );
}

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

function AccessModal({ user, groups, onClose }: { user: ProfileJson; groups: GroupNameJson[]; onClose: () => void }) {
  const { t } = useTranslation('people');
  const save = useUpdateUserAccess();
  const isSelf = user._id === getUserId();
  const form = useForm({
    mode: 'controlled',
    initialValues: { role: user.role === 'pending_director' ? '' : user.role, groupId: user.group?._id ?? '' },
    validate: zodValidate(updateUserAccessInput, {
      toInput: (values: { role: string; groupId: string }) => ({ ...values, groupId: values.groupId || null }),
    }),
  });
  const { field } = translatedErrors(form, 'people');
  const submit = form.onSubmit((values) =>
    save.mutate(
      {
        userId: user._id,
        input: { role: values.role as (typeof APPROVAL_ROLES)[number], groupId: values.groupId || null },
      },
      {
        onSuccess: doneThen(t('manage.accessSaved'), onClose),
        onError: (err) => {
          if (!applyServerError(form, err)) notifications.show({ color: 'red', message: reasonOf(err, t) });
        },
      },
    ),
  );
  return (
    <UserFormModal
      title={t('manage.accessTitle', { name: user.personalDetails.name })}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('manage.save')}
      pending={save.isPending}
    >
      <NativeSelect
        label={t('fields.role')}
        required
        disabled={isSelf}
        data={[
          { value: '', label: t('approval.selectRole') },
          ...APPROVAL_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) })),
        ]}
        {...field('role')}
      />
      <NativeSelect
        label={t('fields.group')}
        data={[{ value: '', label: t('manage.noGroup') }, ...groups.map((g) => ({ value: g._id, label: g.name }))]}
        {...field('groupId')}
      />
    </UserFormModal>
  );
}

function DeactivateModal({ user, onClose }: { user: ProfileJson; onClose: () => void }) {
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

function ResetPasswordModal({ user, onClose }: { user: ProfileJson; onClose: () => void }) {
  const { t } = useTranslation('people');
  const reset = useResetPassword();
  const form = useForm({
    mode: 'controlled',
    initialValues: { newPassword: '' },
    validate: zodValidate(resetPasswordInput),
  });
  const { field } = translatedErrors(form, 'people');
  const submit = form.onSubmit((values) =>
    reset.mutate(
      { userId: user._id, input: values },
      {
        onSuccess: doneThen(t('manage.passwordReset'), onClose),
        onError: (err) => {
          if (!applyServerError(form, err)) notifications.show({ color: 'red', message: reasonOf(err, t) });
        },
      },
    ),
  );
  return (
    <UserFormModal
      title={t('manage.resetTitle', { name: user.personalDetails.name })}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('manage.resetPassword')}
      pending={reset.isPending}
    >
      <Text size="sm">{t('manage.resetIntro')}</Text>
      <PasswordInput
        label={t('manage.newPassword')}
        description={t('password.hint')}
        autoComplete="new-password"
        required
        data-autofocus
        {...field('newPassword')}
      />
    </UserFormModal>
  );
}

function DocumentsModal({ user, onClose }: { user: ProfileJson; onClose: () => void }) {
  const { t } = useTranslation('people');
  const upload = useUploadUserDocument();
  const remove = useRemoveUserDocument();
  const [documents, setDocuments] = useState<UserDocumentJson[]>(user.documents);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [removing, setRemoving] = useState<UserDocumentJson | null>(null);

  const onUpload = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setError(t('manage.selectFile'));
    setError('');
    setProgress(0);
    upload.mutate(
      { userId: user._id, input: { file, onProgress: setProgress } },
      {
        onSuccess: (doc) => {
          setDocuments((list) => [...list, doc as UserDocumentJson]);
          setFile(null);
          notifications.show({ color: 'green', message: t('manage.uploaded') });
        },
        onError: (err) => setError(reasonOf(err, t)),
        onSettled: () => setProgress(null),
      },
    );
  };
  const onRemove = () => {
    if (!removing) return;
    remove.mutate(
      { userId: user._id, input: removing._id },
      {
        onSuccess: () => {
          setDocuments((list) => list.filter((d) => d._id !== removing._id));
          notifications.show({ color: 'green', message: t('manage.removed') });
          setRemoving(null);
        },
        onError: (err) => {
          notifications.show({ color: 'red', message: reasonOf(err, t) });
          setRemoving(null);
        },
      },
    );
  };

  return (
    <>
      <UserModal
        opened={!removing}
        onClose={onClose}
        title={t('manage.documentsTitle', { name: user.personalDetails.name })}
        size="lg"
      >
        <Stack gap="md">
          {documents.length ? (
            <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
              {documents.map((doc) => (
                <li key={doc._id}>
                  <Group gap="sm" wrap="nowrap" justify="space-between" align="flex-start">
                    <div style={{ minWidth: 0 }}>
                      <Anchor
                        href={doc.url}
                        target="_blank"
                        rel="noopener noreferrer"
                        style={{ overflowWrap: 'anywhere' }}
                      >
                        {t('profile.opensInNewTab', { name: doc.filename })}
                      </Anchor>
                      <Text size="xs" c="gray.8">
                        {formatDate(doc.uploadedAt)}
                      </Text>
                    </div>
                    <Button
                      size="xs"
                      variant="outline"
                      color="red.9"
                      onClick={() => setRemoving(doc)}
                      aria-label={t('manage.removeDocument', { name: doc.filename })}
                      style={{ flexShrink: 0 }}
                    >
                      {t('manage.remove')}
                    </Button>
                  </Group>
                </li>
              ))}
            </Stack>
          ) : (
            <Text c="gray.8">{t('manage.noDocumentsYet')}</Text>
          )}
          <form onSubmit={onUpload} noValidate>
            <Group align="flex-end" gap="sm">
              <FileInput
                label={t('manage.document')}
                placeholder={t('manage.chooseFile')}
                description={t('manage.allowedTypes', { types: FILE_TYPES.document.join(', ') })}
                accept={acceptFor('document')}
                clearable
                value={file}
                onChange={setFile}
                style={{ flex: '1 1 240px' }}
              />
              <Button type="submit" loading={upload.isPending}>
                {t('manage.upload')}
              </Button>
            </Group>
            {progress !== null && (
              <Progress mt="xs" value={progress} aria-label={t('manage.uploadProgress', { percent: progress })} />
            )}
            <div role="alert">
              {error && (
                <Text size="sm" c="red.9" mt="xs">
                  {error}
                </Text>
              )}
            </div>
          </form>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('approval.close')}
            </Button>
          </Group>
        </Stack>
      </UserModal>
      <ConfirmDelete
        opened={Boolean(removing)}
        message={t('manage.confirmRemove', { name: removing?.filename ?? '' })}
        title={t('manage.remove')}
        confirmLabel={t('manage.remove')}
        onConfirm={onRemove}
        onCancel={() => setRemoving(null)}
        loading={remove.isPending}
      />
    </>
  );
}

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
        {user.status === 'approved' && !isSelf && (
          <Menu.Item color="red.9" onClick={() => onOpen({ kind: 'deactivate', user })}>
            {t('manage.deactivate')}
          </Menu.Item>
        )}
        {user.status === 'deactivated' && <Menu.Item onClick={onReactivate}>{t('manage.reactivate')}</Menu.Item>}
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
      {user.statusReason && (
        <Text size="xs" c="gray.8" maw={200}>
          {user.statusReason}
        </Text>
      )}
    </>
  );
}

function DocumentsLink({ user, onOpen }: { user: ProfileJson; onOpen: (dialog: Dialog) => void }) {
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
      {dialog && current && dialog.kind === 'documents' && (
        <DocumentsModal user={current} onClose={() => setDialog(null)} />
      )}
    </Stack>
  );
}
