import { Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { PageTitle } from '#web/components/page-title.tsx';
import { GroupInfoForm } from '#web/features/groups/components/group-info-form.tsx';
import { PanelError } from '#web/features/groups/components/group-parts.tsx';

/**
 * /groups/{id}/edit (spec §2 Edit Group): every group field with 'Save Changes'; it tells the outcome and returns to
 * the group page (/group/{id}). Only admins and the group's current associate director may save (the server checks).
 */
export default function EditGroupRoute() {
  const { t } = useTranslation('groups');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  return (
    <>
      <PageTitle>{t('edit.title')}</PageTitle>
      {id ? (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={960}>
          <GroupInfoForm
            groupId={id}
            onSaved={() => void navigate(paths.groupAfterEdit.to(id))}
            onCancel={() => void navigate(paths.group.to(id))}
          />
        </Paper>
      ) : (
        <PanelError>{t('groupIdMissing')}</PanelError>
      )}
    </>
  );
}
