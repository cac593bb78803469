import { NavLink as MantineNavLink, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

import { CountBadge, itemText, type NavBarProps } from './nav-parts.tsx';

// The burger drawer's navigation: loaded when a person on a small screen first opens the menu (app-layout.tsx), not
// with the first page (decision 058).

/** The same navigation as a vertical list with collapsible sections (the burger drawer on small screens). */
export function NavList({ entries, onSignOut, onNavigate }: NavBarProps) {
  const { t } = useTranslation(['common', 'site']);
  const { pathname } = useLocation();
  const linkProps = (to: string, label: string) => ({
    component: Link,
    to,
    label,
    active: pathname === to,
    'aria-current': pathname === to ? ('page' as const) : undefined,
    onClick: onNavigate,
  });
  return (
    <nav aria-label={t('nav.label')}>
      <Stack gap={2}>
        {entries.map((entry) =>
          entry.kind === 'link' ? (
            <MantineNavLink
              key={entry.id}
              {...linkProps(entry.to, t(entry.label))}
              rightSection={<CountBadge badge={entry.badge} />}
            />
          ) : (
            <MantineNavLink key={entry.id} component="button" label={t(entry.label)} childrenOffset={16}>
              {entry.items.map((item) => {
                switch (item.kind) {
                  case 'link':
                    return <MantineNavLink key={item.id} {...linkProps(item.to, itemText(item, t))} />;
                  case 'heading':
                    return (
                      <Text key={item.id} size="xs" fw={700} c="gray.8" tt="uppercase" px="sm" pt="xs">
                        {t(item.label)}
                      </Text>
                    );
                  case 'note':
                    return (
                      <Text key={item.id} size="sm" c="gray.7" px="sm" py={6}>
                        {t(item.label)}
                      </Text>
                    );
                  case 'sign-out':
                    return (
                      <MantineNavLink
                        key={item.id}
                        component="button"
                        label={t(item.label)}
                        c="red.9"
                        onClick={onSignOut}
                      />
                    );
                }
              })}
            </MantineNavLink>
          ),
        )}
      </Stack>
    </nav>
  );
}
