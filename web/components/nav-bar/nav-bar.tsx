import { Menu, NavLink as MantineNavLink, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import type { NavEntry, NavItem } from './navigation.ts';
import classes from './nav-bar.module.css';

export interface NavBarProps {
  entries: NavEntry[];
  onSignOut: () => void;
  /** Called after a link is followed (closes the mobile drawer). */
  onNavigate?: () => void;
}

function Chevron() {
  return (
    <svg className={classes.chevron} viewBox="0 0 12 12" aria-hidden="true" focusable="false">
      <path d="M2 4l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

const itemText = (item: Extract<NavItem, { kind: 'link' }>, t: (key: string) => string) =>
  item.text ?? t(item.label ?? '');

/** The main navigation as a bar of links and dropdown menus (wide screens). */
export function NavBar({ entries, onSignOut, onNavigate }: NavBarProps) {
  const { t } = useTranslation('common');
  return (
    <nav className={classes.bar} aria-label={t('nav.label')}>
      <ul className={classes.list}>
        {entries.map((entry) => (
          <li key={entry.id} className={entry.kind === 'menu' && entry.align === 'end' ? classes.end : undefined}>
            {entry.kind === 'link' ? (
              <NavLink to={entry.to} end className={classes.item} onClick={onNavigate}>
                {t(entry.label)}
              </NavLink>
            ) : (
              <Menu
                position={entry.align === 'end' ? 'bottom-end' : 'bottom-start'}
                offset={0}
                shadow="md"
                loop
                // Mantine's focus placeholder is a role=presentation child of role=menu, which axe refuses.
                withInitialFocusPlaceholder={false}
              >
                <Menu.Target>
                  <button type="button" className={classes.item}>
                    {t(entry.label)}
                    <Chevron />
                  </button>
                </Menu.Target>
                <Menu.Dropdown className={classes.dropdown}>
                  {entry.items.map((item) => {
                    switch (item.kind) {
                      case 'link':
                        return (
                          <Menu.Item key={item.id} component={Link} to={item.to} onClick={onNavigate}>
                            {itemText(item, t)}
                          </Menu.Item>
                        );
                      case 'heading':
                        return (
                          <Menu.Label key={item.id} c="gray.8" fw={700}>
                            {t(item.label)}
                          </Menu.Label>
                        );
                      case 'note':
                        return (
                          <Menu.Item key={item.id} disabled c="gray.7">
                            {t(item.label)}
                          </Menu.Item>
                        );
                      case 'sign-out':
                        return (
                          <Menu.Item key={item.id} color="red.9" onClick={onSignOut}>
                            {t(item.label)}
                          </Menu.Item>
                        );
                    }
                  })}
                </Menu.Dropdown>
              </Menu>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The same navigation as a vertical list with collapsible sections (the burger drawer on small screens). */
export function NavList({ entries, onSignOut, onNavigate }: NavBarProps) {
  const { t } = useTranslation('common');
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
            <MantineNavLink key={entry.id} {...linkProps(entry.to, t(entry.label))} />
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
