import { Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { PageTitle } from '#web/components/page-title.tsx';
import { GroupForm } from '#web/features/groups/components/group-form.tsx';
import { paths } from '#web/lib/paths.ts';

/** /admin/add-groups and /add-group: Create New Research Group (spec §2); on success, 'Group created successfully!' and home. */
export default function AddGroupsRoute() {
  const { t } = useTranslation('groups');
  const navigate = useNavigate();
  return (
    <>
      <PageTitle>{t('create.title')}</PageTitle>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={960}>
        <GroupForm mode="create" onCreated={() => void navigate(paths.home)} />
      </Paper>
    </>
  );
}
