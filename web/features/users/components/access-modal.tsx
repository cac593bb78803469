import { NativeSelect } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { APPROVAL_ROLES } from '#shared/constants.ts';
import type { GroupNameJson } from '#shared/schemas/group.ts';
import { updateUserAccessInput, type ProfileJson } from '#shared/schemas/user.ts';
import { getUserId } from '#web/lib/auth-storage.ts';
import { applyServerError, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { useUpdateUserAccess } from '../api.ts';
import { reasonOf, doneThen, UserFormModal } from './user-modal.tsx';

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
