import { Box, Grid, NavLink as MantineNavLink, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';

import { paths } from '#web/lib/paths.ts';

import { LAB_ADMIN_SECTIONS, type LabAdminSection, sectionLink } from './sections.ts';

/**
 * /admin: the lab admin panel's layout (spec §2): its side menu (Manage Labs, Manage Directors, Manage Notices &
 * Circulars, Manage Products & Achievements, Manage Users) beside the nested manage-lab, manage and groups/{id}.
 */
export default function AdminLayoutRoute() {
  const { t } = useTranslation('lab');
  const { pathname, search } = useLocation();
  const section = (new URLSearchParams(search).get('section') ?? 'lab') as LabAdminSection;
  const isActive = (entry: (typeof LAB_ADMIN_SECTIONS)[number]) =>
    entry === 'users' ? pathname === paths.admin.manage : pathname === paths.admin.manageLab && section === entry;
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 3 }}>
        <Box component="nav" aria-labelledby="lab-admin-menu-heading">
          <Title order={2} size="h5" mb="xs" id="lab-admin-menu-heading">
            {t('admin.title')}
          </Title>
          {LAB_ADMIN_SECTIONS.map((entry) => (
            <MantineNavLink
              key={entry}
              component={Link}
              to={sectionLink(entry)}
              label={t(`admin.${sectionLabel[entry]}`)}
              active={isActive(entry)}
              aria-current={isActive(entry) ? 'page' : undefined}
            />
          ))}
        </Box>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 9 }}>
        <Outlet />
      </Grid.Col>
    </Grid>
  );
}

const sectionLabel: Record<(typeof LAB_ADMIN_SECTIONS)[number], string> = {
  lab: 'manageLabs',
  directors: 'manageDirectors',
  notices: 'manageNotices',
  products: 'manageProducts',
  users: 'manageUsers',
};
