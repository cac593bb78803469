import { Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '#web/lib/paths.ts';
import { PageTitle } from '#web/components/page-title.tsx';
import { CreateGroupForm } from '#web/features/groups/components/create-group-form.tsx';

/** /admin/add-groups and /add-group: Create New Research Group (spec §2); on success, 'Group created successfully!' and home. */
export default function AddGroupsRoute() {
  const { t } = useTranslation('groups');
  const navigate = useNavigate();
  return (
    <>
      <PageTitle>{t('create.title')}</PageTitle>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={960}>
        <CreateGroupForm onCreated={() => void navigate(paths.home)} />
      </Paper>
    </>
  );
}
