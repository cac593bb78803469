import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { APPROVAL_ROLES } from '#shared/constants.ts';
import type { GroupNameJson } from '#shared/schemas/group.ts';
import { type ProfileJson, updateUserAccessInput } from '#shared/schemas/user.ts';

import { awaitsDirectorApproval } from '#web/lib/access.policy.ts';
import { getUserId } from '#web/lib/auth-storage.ts';

import { useUpdateUserAccess } from '../api.ts';
import { UserFormModal, useUserDialogForm } from './user-modal.tsx';

/** Change a user's role and group (spec §2 Manage Users). */
export function AccessModal({
  user,
  groups,
  onClose,
}: {
  user: ProfileJson;
  groups: GroupNameJson[];
  onClose: () => void;
}) {
  const { t } = useTranslation('people');
  const save = useUpdateUserAccess();
  const isSelf = user._id === getUserId();
  const toInput = (values: { role: string; groupId: string }) => ({
    role: values.role as (typeof APPROVAL_ROLES)[number],
    groupId: values.groupId || null, // 'No group'
  });
  const { field, submit } = useUserDialogForm({
    initialValues: { role: awaitsDirectorApproval(user.role) ? '' : user.role, groupId: user.group?._id ?? '' },
    schema: updateUserAccessInput,
    toInput,
    send: (values, callbacks) => save.mutate({ userId: user._id, input: toInput(values) }, callbacks),
    doneText: t('manage.accessSaved'),
    onClose,
  });
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
