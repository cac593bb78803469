import {
  Avatar,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { APPROVAL_ROLES } from '#shared/constants.ts';
import { approveUserInput } from '#shared/schemas/auth.ts';
import type { GroupNameJson } from '#shared/schemas/group.ts';
import { rejectUserInput, type UserJson } from '#shared/schemas/user.ts';

import { EmptyState } from '#web/components/empty-state.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { serverMessage, zodValidate } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useApproveUser, usePendingUsers, useRejectUser } from '../api.ts';
import { initialsOf } from './profile-photo.tsx';
import { Detail, PersonAndWorkDetails, Section } from './profile-view.tsx';
import { UserFormModal, useUserDialogForm } from './user-modal.tsx';

export interface LabSummary {
  _id: string;
  name: string;
}

/** The registration as the person gave it: only what the server holds, nothing made up (spec §8 defect). */
function ProfileModal({ user, onClose }: { user: UserJson; onClose: () => void }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('people');
  const name = user.personalDetails.name;
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('approval.close') }}
      title={t('approval.profileOf', { name })}
      size="xl"
      centered
    >
      <Stack gap="md">
        <Group>
          <Avatar
            src={user.photo}
            alt={user.photo ? t('profile.photoOf', { name }) : undefined}
            size={64}
            radius={64}
            color="navy"
          >
            {initialsOf(name)}
          </Avatar>
          <div>
            <Text fw={600}>{name}</Text>
            <Text size="sm">{user.email}</Text>
            <Text size="sm" c="gray.8">
              {t('approval.requested', { role: t(`roles.${user.role}`) })}
            </Text>
          </div>
        </Group>
        <PersonAndWorkDetails profile={user} />
        <Section title={t('profile.aboutMe')}>
          {user.about ? (
            <Text style={{ whiteSpace: 'pre-line' }}>{user.about}</Text>
          ) : (
            <Detail label={t('fields.about')} value="" />
          )}
        </Section>
        <Section title={t('profile.employmentPeriod')}>
          <SimpleGrid cols={2}>
            <Detail label={t('fields.from')} value={formatDate(user.employmentPeriod.from, '')} />
            <Detail label={t('fields.to')} value={formatDate(user.employmentPeriod.to, '')} />
          </SimpleGrid>
        </Section>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('approval.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function RejectModal({ user, onClose }: { user: UserJson; onClose: () => void }) {
  const { t } = useTranslation('people');
  const reject = useRejectUser();
  const { field, submit } = useUserDialogForm({
    initialValues: { reason: '' },
    schema: rejectUserInput,
    send: ({ reason }, callbacks) => reject.mutate({ userId: user._id, reason }, callbacks),
    doneText: t('approval.rejected'),
    failedText: t('approval.rejectFailed'),
    onClose,
  });
  return (
    <UserFormModal
      title={t('approval.rejectTitle', { name: user.personalDetails.name })}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('approval.confirmReject')}
      submitColor="red.9"
      pending={reject.isPending}
    >
      <Text size="sm">{t('approval.rejectIntro')}</Text>
      <Textarea
        label={t('approval.reason')}
        required
        autosize
        minRows={3}
        maxLength={500}
        data-autofocus
        {...field('reason')}
      />
    </UserFormModal>
  );
}

function PendingUserCard({ user, lab, groups }: { user: UserJson; lab: LabSummary | null; groups: GroupNameJson[] }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('people');
  const approve = useApproveUser();
  // The card shows one line for both selects (spec §8), so the schema's own messages are not put on them.
  const form = useForm({
    mode: 'controlled',
    initialValues: { groupId: '', role: '' },
    validate: zodValidate(approveUserInput, { toInput: (values) => ({ labId: lab?._id ?? null, ...values }) }),
  });
  const [error, setError] = useState('');
  const [dialog, setDialog] = useState<'profile' | 'reject' | null>(null);
  const name = user.personalDetails.name;
  const ids = { group: `approve-${user._id}-group`, role: `approve-${user._id}-role` };

  const onApprove = form.onSubmit(
    (values) => {
      setError('');
      const input = { labId: lab?._id ?? null, ...values };
      approve.mutate(
        { userId: user._id, input: input as Parameters<typeof approve.mutate>[0]['input'] },
        {
          onSuccess: () => notifications.show({ color: 'green', message: t('approval.approved') }),
          onError: (err) => {
            const message = serverMessage(err, t('approval.approveFailed'));
            setError(message);
            notifications.show({ color: 'red', message });
          },
        },
      );
    },
    () => setError(t('approval.selectBoth')),
  );

  return (
    <Card withBorder radius="md" padding="lg" component="article" aria-labelledby={`pending-${user._id}`}>
      <Stack gap="sm">
        <Group wrap="nowrap" align="flex-start">
          <Avatar
            src={user.photo}
            alt={user.photo ? t('profile.photoOf', { name }) : undefined}
            size={56}
            radius={56}
            color="navy"
          >
            {initialsOf(name)}
          </Avatar>
          <Stack gap={2} miw={0}>
            <Title order={2} size="h4" id={`pending-${user._id}`} style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Title>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {user.email}
            </Text>
            <Text size="sm" c="gray.8">
              {t('approval.requested', { role: t(`roles.${user.role}`) })} · {t('fields.registeredOn')}:{' '}
              {formatDate(user.createdAt)}
            </Text>
          </Stack>
        </Group>
        <div>
          <Button variant="light" size="xs" onClick={() => setDialog('profile')}>
            {t('approval.viewProfile')}
          </Button>
        </div>
        <TextInput label={t('fields.lab')} value={lab?.name ?? t('approval.noLab')} readOnly />
        <NativeSelect
          id={ids.group}
          label={t('fields.group')}
          value={form.values.groupId}
          onChange={(event) => form.setFieldValue('groupId', event.currentTarget.value)}
          data={[
            { value: '', label: t('approval.selectGroup') },
            ...groups.map((g) => ({ value: g._id, label: g.name })),
          ]}
        />
        <NativeSelect
          id={ids.role}
          label={t('fields.role')}
          value={form.values.role}
          onChange={(event) => form.setFieldValue('role', event.currentTarget.value)}
          data={[
            { value: '', label: t('approval.selectRole') },
            ...APPROVAL_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) })),
          ]}
        />
        <div role="alert">
          {error && (
            <Text size="sm" c="red.9">
              {error}
            </Text>
          )}
        </div>
        <Group justify="space-between">
          <Button variant="outline" color="red.9" onClick={() => setDialog('reject')} disabled={approve.isPending}>
            {t('approval.reject')}
          </Button>
          <Button onClick={() => onApprove()} loading={approve.isPending}>
            {t('approval.approve')}
          </Button>
        </Group>
      </Stack>
      {dialog === 'profile' && <ProfileModal user={user} onClose={() => setDialog(null)} />}
      {dialog === 'reject' && <RejectModal user={user} onClose={() => setDialog(null)} />}
    </Card>
  );
}

/**
 * Pending User Approvals (spec §2, §4, §8): a card per pending user with a profile modal of what they registered, a
 * read-only lab field, a group select, a role select and 'Approve User' (the chosen role overrides the requested one;
 * the card then disappears), and 'Reject' with a reason. Only what the server holds is shown.
 */
export function PendingApprovals({
  lab,
  groups,
  groupsFailed,
}: {
  lab: LabSummary | null;
  groups: GroupNameJson[];
  groupsFailed: boolean;
}) {
  const { t } = useTranslation('people');
  const pending = usePendingUsers();
  if (pending.isPending) {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" />
        <Text>{t('approval.loading')}</Text>
      </Group>
    );
  }
  if (pending.isError || groupsFailed) {
    return <PanelError>{t('approval.loadFailed')}</PanelError>;
  }
  if (!pending.data.length) return <EmptyState>{t('approval.empty')}</EmptyState>;
  return (
    <Stack gap="md">
      <Text c="gray.8" role="status">
        {t('approval.count', { count: pending.data.length })}
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        {pending.data.map((user) => (
          <PendingUserCard key={user._id} user={user} lab={lab} groups={groups} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
