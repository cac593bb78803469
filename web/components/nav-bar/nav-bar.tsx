import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';

import { withMantineStyles } from '#web/lib/mantine-styles.ts';

import classes from './nav-bar.module.css';
import { Chevron, CountBadge, type NavBarProps } from './nav-parts.tsx';
import type { NavEntry } from './navigation.ts';

export type { NavBarProps };

const loadNavMenu = withMantineStyles(() => import('./nav-menu.tsx'));
const NavMenu = lazy(loadNavMenu);

/**
 * A dropdown of the navigation bar. Mantine's Menu (with its floating positioning, about 30 KB gzip) loads when a
 * person first points at, focuses or opens a dropdown, not with the first page (decision 058): until then the same button
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
                <CountBadge badge={entry.badge} />
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
