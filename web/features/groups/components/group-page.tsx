import type { ReactNode } from 'react';
import { Alert, Box, Button, Group, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { GroupJson } from '#shared/schemas/group.ts';
import { PageTitle } from '#web/components/page-title.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useGroup } from '../api.ts';
import { isForbidden, isOffline, Loading, PanelError } from './group-parts.tsx';
import {
  GroupContacts,
  GroupDocuments,
  GroupHistoryTable,
  GroupLeaderProfile,
  GroupMembersTable,
  GroupOfficeTable,
  GroupProducts,
  GroupText,
  GroupVisionMission,
} from './group-panels.tsx';

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

function panelFor(tab: GroupTab, group: GroupJson, t: (key: string) => string): ReactNode {
  switch (tab) {
    case 'about':
      return <GroupText text={group.about || group.description} empty={t('page.noDescription')} />;
    case 'visionMission':
      return <GroupVisionMission group={group} />;
    case 'leader':
      return <GroupLeaderProfile leader={group.currentAD} />;
    case 'office':
      return <GroupOfficeTable office={group.officeOfGroup} />;
    case 'roleHonour':
      return <GroupHistoryTable history={group.assistantDirectorHistory} />;
    case 'history':
      return <GroupText text={group.GroupHistoryDetails} empty={t('page.noHistory')} />;
    case 'members':
      return <GroupMembersTable employees={group.employees} />;
    case 'notices':
      return <GroupDocuments group={group} />;
    case 'products':
      return <GroupProducts group={group} />;
    case 'contact':
      return <GroupContacts contacts={group.contactInfo} />;
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
  const [params, setParams] = useSearchParams();
  const wide = useMediaQuery('(min-width: 48em)', true);
  const group = useGroup(groupId);
  const requested = params.get('tab') as GroupTab | null;
  const active: GroupTab = requested && GROUP_TABS.includes(requested) ? requested : 'about';

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

  const select = (value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (!value || value === 'about') next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  const content = (tab: GroupTab): ReactNode => {
    if (group.isPending) return <Loading />;
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
      <Tabs
        value={active}
        onChange={select}
        orientation={wide ? 'vertical' : 'horizontal'}
        variant="pills"
        keepMounted={false}
        mt="md"
      >
        <Tabs.List
          aria-label={t('page.tabsLabel')}
          style={wide ? { minWidth: 210 } : { flexWrap: 'wrap', marginBottom: 'var(--mantine-spacing-md)' }}
        >
          {GROUP_TABS.map((tab) => (
            <Tabs.Tab key={tab} value={tab}>
              {t(`page.tabs.${tab}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {GROUP_TABS.map((tab) => (
          <Tabs.Panel key={tab} value={tab} pl={wide ? 'lg' : 0}>
            <Box>
              <Title order={2} size="h3" mb="md">
                {t(`page.tabs.${tab}`)}
              </Title>
              {content(tab)}
            </Box>
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}
