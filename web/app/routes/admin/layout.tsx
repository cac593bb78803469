import { Box, Grid, NavLink as MantineNavLink } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { paths } from '#web/app/paths.ts';

/** /admin: the administration layout with its side menu; manage-lab, manage and groups/{id} render beside it. */
export default function AdminLayoutRoute() {
  const { t } = useTranslation('common');
  const { pathname } = useLocation();
  const entries = [
    { to: paths.admin.manageLab, label: t('pages.manageLab') },
    { to: paths.admin.manage, label: t('pages.adminManage') },
  ];
  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, md: 3 }}>
        <Box component="nav" aria-label={t('nav.adminSections')}>
          {entries.map((entry) => (
            <MantineNavLink
              key={entry.to}
              component={Link}
              to={entry.to}
              label={entry.label}
              active={pathname === entry.to}
              aria-current={pathname === entry.to ? 'page' : undefined}
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
