import { Badge, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import classes from './nav-bar.module.css';
import type { NavEntry, NavItem } from './navigation.ts';

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

/** A count beside a link ("Marked to me 3"), read out as "3 not yet received". */
export function CountBadge({ count }: { count?: number }) {
  const { t } = useTranslation('common');
  if (!count) return null;
  return (
    <Badge component="span" size="sm" circle={count < 10} color="red.9" variant="filled" ml={6}>
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <VisuallyHidden>{t('nav.inboxCount', { count })}</VisuallyHidden>
    </Badge>
  );
}
