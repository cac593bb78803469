import type { NavEntry, NavItem } from './navigation.ts';
import classes from './nav-bar.module.css';

/* Pieces shared by the navigation bar and its lazily loaded dropdown menu (nav-menu.tsx). */

export interface NavBarProps {
  entries: NavEntry[];
  onSignOut: () => void;
  /** Called after a link is followed (closes the mobile drawer). */
  onNavigate?: () => void;
}

export function Chevron() {
  return (
    <svg className={classes.chevron} viewBox="0 0 12 12" aria-hidden="true" focusable="false">
      <path d="M2 4l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

export const itemText = (item: Extract<NavItem, { kind: 'link' }>, t: (key: string) => string) => {
  const text = item.text ?? t(item.label ?? '');
  return item.tag ? `${text} (${t(item.tag)})` : text;
};
