import { Anchor, Box, Grid, NavLink, Tabs, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { GROUP_FILE_FIELDS } from '#shared/schemas/group.ts';

import { PageTitle } from '#web/components/page-title.tsx';
import { PanelError } from '#web/components/panel-error.tsx';

import { useGroup } from '../api.ts';
import { GroupForm } from './group-form.tsx';
import { isForbidden } from './group-parts.tsx';
import { ManageGroupDirectors } from './manage-group-directors.tsx';
import { type GroupItemSlot, ManageGroupItems } from './manage-group-items.tsx';
import { ManageGroupOffice } from './manage-group-office.tsx';
import { ManageMembers } from './manage-members.tsx';

/** The side menu of the group admin panel, in the spec's order (§2). */
export const ADMIN_SECTIONS = ['info', 'directors', 'notices', 'files', 'office', 'members'] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];

/**
 * One tab per list (notices and circulars, or the five file lists), each with its add form and items; `slot` adds
 * fields to the notice and circular forms (decision 075: requires acknowledgement).
 */
export function GroupItemTabs({
  groupId,
  fields,
  label,
  slot,
}: {
  groupId: string;
  fields: readonly ('notices' | 'circulars' | (typeof GROUP_FILE_FIELDS)[number])[];
  label: string;
  slot?: GroupItemSlot;
}) {
  const { t } = useTranslation('groups');
  return (
    <Tabs defaultValue={fields[0]} keepMounted={false}>
      <Tabs.List aria-label={label} mb="md" style={{ flexWrap: 'wrap' }}>
        {fields.map((f) => (
          <Tabs.Tab key={f} value={f}>
            {t(`lists.${f}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {fields.map((f) => (
        <Tabs.Panel key={f} value={f}>
          <ManageGroupItems groupId={groupId} field={f} slot={slot} />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

/**
 * The group admin panel (spec §2 /admin/group/{id}): Manage Groups, Manage AssociateDirectors, Manage Group Notices
 * & Circulars, Manage Group Products & Achievements (five file managers), ManageOffice and Manage Members. The open
 * section is kept in ?section= so it can be linked to. `slot`: decision 075's acknowledgement fields of the notices.
 */
export function GroupAdminPanel({
  groupId,
  groupTo,
  slot,
}: {
  groupId: string;
  groupTo: string;
  slot?: GroupItemSlot;
}) {
  const { t } = useTranslation('groups');
  const [params, setParams] = useSearchParams();
  const group = useGroup(groupId);
  const requested = params.get('section') as AdminSection | null;
  const active: AdminSection = requested && ADMIN_SECTIONS.includes(requested) ? requested : 'info';
  const open = (section: AdminSection) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (section === 'info') next.delete('section');
        else next.set('section', section);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  if (group.isError && isForbidden(group.error)) return <PanelError>{t('accessDenied')}</PanelError>;

  const content: Record<AdminSection, ReactNode> = {
    info: <GroupForm mode="edit" groupId={groupId} />,
    directors: <ManageGroupDirectors groupId={groupId} />,
    notices: (
      <GroupItemTabs
        groupId={groupId}
        fields={['notices', 'circulars']}
        label={t('admin.sections.notices')}
        slot={slot}
      />
    ),
    files: <GroupItemTabs groupId={groupId} fields={GROUP_FILE_FIELDS} label={t('admin.sections.files')} />,
    office: <ManageGroupOffice groupId={groupId} />,
    members: <ManageMembers groupId={groupId} />,
  };

  return (
    <>
      <PageTitle mb={4}>{t('admin.title')}</PageTitle>
      <Text c="gray.8" mb="lg">
        {group.data?.name}
        {group.data && (
          <>
            {' · '}
            <Anchor component={Link} to={groupTo} underline="always">
              {t('admin.viewGroup')}
            </Anchor>
          </>
        )}
      </Text>
      {group.isError && !group.data && <PanelError>{t('edit.loadFailed')}</PanelError>}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Box component="nav" aria-label={t('admin.menuLabel')}>
            {ADMIN_SECTIONS.map((section) => (
              <NavLink
                key={section}
                component="button"
                type="button"
                label={t(`admin.sections.${section}`)}
                active={active === section}
                aria-current={active === section ? 'page' : undefined}
                onClick={() => open(section)}
              />
            ))}
          </Box>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Title order={2} size="h3" mb="md">
            {t(`admin.sections.${active}`)}
          </Title>
          {/* keyed: each section starts fresh (its own tabs and forms) */}
          <div key={active}>{content[active]}</div>
        </Grid.Col>
      </Grid>
    </>
  );
}
