import { Alert, Button, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { GroupJson } from '#shared/schemas/group.ts';

import { PageTitle } from '#web/components/page-title.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { ContactList, LeaderProfile, VisionMissionCards } from '#web/components/unit/unit-panels.tsx';
import { DirectorHistoryTable, OfficeTable } from '#web/components/unit/unit-tables.tsx';
import { UnitTabs } from '#web/components/unit/unit-tabs.tsx';
import { ApiError } from '#web/lib/api-client.ts';

import { useGroup } from '../api.ts';
import { GroupDocuments, GroupMembersTable, GroupProducts, GroupText } from './group-panels.tsx';
import { isForbidden, isOffline } from './group-parts.tsx';

/** The ten tabs of the group page, in the spec's order (§2 Group page). About Group is the default. */
export const GROUP_TABS = [
  'about',
  'visionMission',
  'leader',
  'office',
  'roleHonour',
  'history',
  'members',
  'notices',
  'products',
  'contact',
] as const;
export type GroupTab = (typeof GROUP_TABS)[number];

/** Each tab's failure text (spec §8 Groups, public). */
const ERROR_KEY: Record<GroupTab, string> = {
  about: 'errors.loadData',
  visionMission: 'errors.loadData',
  leader: 'errors.currentAD',
  office: 'errors.office',
  roleHonour: 'errors.currentAD',
  history: 'errors.history',
  members: 'errors.loadData',
  notices: 'errors.loadData',
  products: 'errors.loadData',
  contact: 'errors.contactInfo',
};

function panelFor(
  tab: GroupTab,
  group: GroupJson,
  t: (key: string, values?: Record<string, string>) => string,
): ReactNode {
  switch (tab) {
    case 'about':
      return <GroupText text={group.about || group.description} empty={t('page.noDescription')} />;
    case 'visionMission':
      return <VisionMissionCards vision={group.vision} mission={group.mission} />;
    case 'leader':
      return <LeaderProfile leader={group.currentAD} since={(date) => t('page.inOfficeSince', { date })} />;
    case 'office':
      return <OfficeTable office={group.officeOfGroup} caption={t('page.tabs.office')} empty={t('page.noOffice')} />;
    case 'roleHonour':
      return <DirectorHistoryTable history={group.assistantDirectorHistory} caption={t('page.tabs.roleHonour')} />;
    case 'history':
      return <GroupText text={group.GroupHistoryDetails} empty={t('page.noHistory')} />;
    case 'members':
      return <GroupMembersTable employees={group.employees} />;
    case 'notices':
      return <GroupDocuments group={group} />;
    case 'products':
      return <GroupProducts group={group} />;
    case 'contact':
      return <ContactList contacts={group.contactInfo} bulleted />;
  }
}

export interface GroupPageProps {
  groupId: string;
  /** Links shown to those who may use them (the route composes them from the session). */
  isAdmin: boolean;
  editTo: string;
  adminTo: string;
}

/**
 * The group page (spec §2 /group/id/{id}): the group's name and description, then ten tabs, each with its empty and
 * error texts. Directors, admins and members see it; anyone else gets the spec's Access Denied text (the server
 * refuses them the data too).
 */
export function GroupPage({ groupId, isAdmin, editTo, adminTo }: GroupPageProps) {
  const { t } = useTranslation('groups');
  const group = useGroup(groupId);

  if (group.isError && isForbidden(group.error)) {
    return (
      <>
        <PageTitle>{t('accessDeniedTitle')}</PageTitle>
        <Alert color="red" variant="light" role="alert" maw={720}>
          <Text c="gray.9">{t('accessDenied')}</Text>
        </Alert>
      </>
    );
  }
  if (group.isError && group.error instanceof ApiError && (group.error.status === 404 || group.error.status === 400)) {
    return (
      <>
        <PageTitle>{t('notFound')}</PageTitle>
        <PanelError>{t('notFound')}</PanelError>
      </>
    );
  }

  const content = (tab: GroupTab): ReactNode => {
    if (group.isPending) return <PanelLoader />;
    if (group.isError || !group.data)
      return <PanelError>{t(isOffline(group.error) ? 'errors.connect' : ERROR_KEY[tab])}</PanelError>;
    return panelFor(tab, group.data, t);
  };

  const data = group.data;
  return (
    <>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <PageTitle mb={4}>{data?.name ?? t('page.tabs.about')}</PageTitle>
        {data && (data.canManage || isAdmin) && (
          <Group gap="xs">
            {data.canManage && (
              <Button component={Link} to={editTo} variant="light">
                {t('page.editGroup')}
              </Button>
            )}
            {isAdmin && (
              <Button component={Link} to={adminTo} variant="light">
                {t('page.adminPanel')}
              </Button>
            )}
          </Group>
        )}
      </Group>
      {data?.description && (
        <Text c="gray.8" mb="lg" style={{ whiteSpace: 'pre-line' }}>
          {data.description}
        </Text>
      )}
      <UnitTabs tabs={GROUP_TABS} label={t('page.tabsLabel')} title={(tab) => t(`page.tabs.${tab}`)} mt="md">
        {content}
      </UnitTabs>
    </>
  );
}
