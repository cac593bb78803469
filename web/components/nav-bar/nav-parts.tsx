import { Badge, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import classes from './nav-bar.module.css';
import type { NavBadge, NavEntry, NavItem } from './navigation.ts';

/* Pieces shared by the navigation bar, its lazily loaded dropdown menu (nav-menu.tsx) and drawer list (nav-list.tsx). */

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

/** A count beside a link ("Marked to me 3"), read out in the badge's words ("3 letters not yet received"). */
export function CountBadge({ badge }: { badge?: NavBadge }) {
  const { t } = useTranslation('common');
  const count = badge?.count ?? 0;
  if (!badge || !count) return null;
  return (
    <Badge component="span" size="sm" circle={count < 10} color="red.9" variant="filled" ml={6}>
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <VisuallyHidden>{t(badge.label, { count, ...badge.values })}</VisuallyHidden>
    </Badge>
  );
}
