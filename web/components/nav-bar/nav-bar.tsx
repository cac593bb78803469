import { lazy, Suspense, useState } from 'react';
import { Badge, NavLink as MantineNavLink, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import type { NavEntry } from './navigation.ts';
import { Chevron, itemText, type NavBarProps } from './nav-parts.tsx';
import classes from './nav-bar.module.css';

export type { NavBarProps };

const loadNavMenu = () => import('./nav-menu.tsx');
const NavMenu = lazy(loadNavMenu);

/**
 * A dropdown of the navigation bar. Mantine's Menu (with its floating positioning, about 30 KB gzip) loads when a
 * person first points at, focuses or opens a dropdown, not with the first page (issue 12): until then the same button
 * stands in, and a click on it opens the menu as soon as it has loaded, with the focus on its button.
 */
function NavMenuEntry({
  entry,
  onSignOut,
  onNavigate,
}: { entry: Extract<NavEntry, { kind: 'menu' }> } & Omit<NavBarProps, 'entries'>) {
  const { t } = useTranslation('common');
  const [wanted, setWanted] = useState(false);
  const standIn = (
    <button
      type="button"
      className={classes.item}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void loadNavMenu()}
      onFocus={() => void loadNavMenu()}
      onClick={() => setWanted(true)}
    >
      {t(entry.label)}
      <Chevron />
    </button>
  );
  if (!wanted) return standIn;
  return (
    <Suspense fallback={standIn}>
      <NavMenu entry={entry} onSignOut={onSignOut} onNavigate={onNavigate} opened />
    </Suspense>
  );
}

/** A count beside a link ("Marked to me 3"), read out as "3 not yet received". */
function CountBadge({ count }: { count?: number }) {
  const { t } = useTranslation('common');
  if (!count) return null;
  return (
    <Badge component="span" size="sm" circle={count < 10} color="red.9" variant="filled" ml={6}>
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <VisuallyHidden>{t('nav.inboxCount', { count })}</VisuallyHidden>
    </Badge>
  );
}

/** The main navigation as a bar of links and dropdown menus (wide screens). */
export function NavBar({ entries, onSignOut, onNavigate }: NavBarProps) {
  const { t } = useTranslation(['common', 'site']);
  return (
    <nav className={classes.bar} aria-label={t('nav.label')}>
      <ul className={classes.list}>
        {entries.map((entry) => (
          <li key={entry.id} className={entry.kind === 'menu' && entry.align === 'end' ? classes.end : undefined}>
            {entry.kind === 'link' ? (
              <NavLink to={entry.to} end className={classes.item} onClick={onNavigate}>
                {t(entry.label)}
                <CountBadge count={entry.badge} />
              </NavLink>
            ) : (
              <NavMenuEntry entry={entry} onSignOut={onSignOut} onNavigate={onNavigate} />
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

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
              rightSection={<CountBadge count={entry.badge} />}
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
