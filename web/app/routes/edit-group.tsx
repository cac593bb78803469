import { Paper, Tabs, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';

import { GROUP_FILE_FIELDS } from '#shared/schemas/group.ts';

import { PageTitle } from '#web/components/page-title.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { useAcknowledgementSlot } from '#web/features/acknowledgements/components/publish-fields.tsx';
import { useGroupForEdit } from '#web/features/groups/api.ts';
import { GroupItemTabs } from '#web/features/groups/components/group-admin-panel.tsx';
import { GroupForm } from '#web/features/groups/components/group-form.tsx';
import { ManageGroupOffice } from '#web/features/groups/components/manage-group-office.tsx';
import { paths } from '#web/lib/paths.ts';

/** The open tab's heading, for screen readers: the lists below it are h3, under the page's h1 (axe heading-order). */
const PanelHeading = ({ children }: { children: string }) => (
  <VisuallyHidden>
    <Title order={2}>{children}</Title>
  </VisuallyHidden>
);

/**
 * /groups/{id}/edit (spec §2 Edit Group): every group field with 'Save Changes'; it tells the outcome and returns to
 * the group page (/group/{id}). Admins and the group's current associate director may save (the server checks). As
 * spec §1 lets group managers look after their notices, files and office, and the admin panel is for admins only,
 * those managers are here too (decision 006). Their notices and circulars may ask the group's members to acknowledge
 * them.
 */
export default function EditGroupRoute() {
  const { t } = useTranslation('groups');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const group = useGroupForEdit(id);
  const slot = useAcknowledgementSlot({ type: 'group', group: { _id: id, name: group.data?.name ?? '' } });
  if (!id)
    return (
      <>
        <PageTitle>{t('edit.title')}</PageTitle>
        <PanelError>{t('groupIdMissing')}</PanelError>
      </>
    );
  const info = (
    <GroupForm
      mode="edit"
      groupId={id}
      onSaved={() => void navigate(paths.groupAfterEdit.to(id))}
      onCancel={() => void navigate(paths.group.to(id))}
    />
  );
  return (
    <>
      <PageTitle>{group.data ? `${t('edit.title')}: ${group.data.name}` : t('edit.title')}</PageTitle>
      {group.data?.canManage ? (
        <Tabs defaultValue="info" keepMounted={false}>
          <Tabs.List aria-label={t('admin.menuLabel')} mb="md" style={{ flexWrap: 'wrap' }}>
            <Tabs.Tab value="info">{t('admin.sections.info')}</Tabs.Tab>
            <Tabs.Tab value="notices">{t('admin.sections.notices')}</Tabs.Tab>
            <Tabs.Tab value="files">{t('admin.sections.files')}</Tabs.Tab>
            <Tabs.Tab value="office">{t('admin.sections.office')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="info">
            <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={960}>
              {info}
            </Paper>
          </Tabs.Panel>
          <Tabs.Panel value="notices">
            <PanelHeading>{t('admin.sections.notices')}</PanelHeading>
            <GroupItemTabs
              groupId={id}
              fields={['notices', 'circulars']}
              label={t('admin.sections.notices')}
              slot={slot}
            />
          </Tabs.Panel>
          {/* Tabs, not five stacked add-forms on one 3,650 px page (decision 019). */}
          <Tabs.Panel value="files">
            <PanelHeading>{t('admin.sections.files')}</PanelHeading>
            <GroupItemTabs groupId={id} fields={GROUP_FILE_FIELDS} label={t('admin.sections.files')} />
          </Tabs.Panel>
          <Tabs.Panel value="office">
            <PanelHeading>{t('admin.sections.office')}</PanelHeading>
            <ManageGroupOffice groupId={id} />
          </Tabs.Panel>
        </Tabs>
      ) : (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={960}>
          {info}
        </Paper>
      )}
    </>
  );
}
