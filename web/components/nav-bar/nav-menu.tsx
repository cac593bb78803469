import { Menu } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import classes from './nav-bar.module.css';
import { Chevron, itemText, type NavBarProps } from './nav-parts.tsx';
import type { NavEntry } from './navigation.ts';

export interface NavMenuProps extends Omit<NavBarProps, 'entries'> {
  entry: Extract<NavEntry, { kind: 'menu' }>;
  /** Open at once, with the focus on its button: the person clicked the stand-in before this code had loaded. */
  opened: boolean;
}

/** A dropdown of the navigation bar (loaded on first use by nav-bar.tsx). */
export default function NavMenu({ entry, onSignOut, onNavigate, opened }: NavMenuProps) {
  const { t } = useTranslation('common');
  const target = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // This button replaced the stand-in the person was on: keep the keyboard focus where it was.
    if (opened) target.current?.focus();
  }, [opened]);
  return (
    <Menu
      defaultOpened={opened}
      position={entry.align === 'end' ? 'bottom-end' : 'bottom-start'}
      offset={0}
      shadow="md"
      loop
      // Mantine's focus placeholder is a role=presentation child of role=menu, which axe refuses.
      withInitialFocusPlaceholder={false}
      // Drawn beside its button inside the navigation landmark, not in a portal at the end of <body> (axe region).
      withinPortal={false}
    >
      <Menu.Target>
        <button type="button" className={classes.item} ref={target}>
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
  );
}
