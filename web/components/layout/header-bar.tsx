import { Box, Burger, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { paths } from '#web/lib/paths.ts';

import { DisplayControls } from '../display-controls.tsx';
import { DisplayControlsMenu } from '../display-controls-menu.tsx';
import { LanguageToggle } from '../language-toggle.tsx';
import { SearchBox } from '../search-box.tsx';
import classes from './layout.module.css';

export interface HeaderBarProps {
  labTitle: string;
  menuOpened: boolean;
  onToggleMenu: () => void;
  /** Shown beside the language toggle for a signed-in person (the notification bell). */
  actions?: ReactNode;
}

/**
 * The top bar: logo and lab title (a link to /), the search box, text size and contrast, and the language toggle; a
 * burger on small screens, where text size and contrast fold into one button.
 */
export function HeaderBar({ labTitle, menuOpened, onToggleMenu, actions }: HeaderBarProps) {
  const { t } = useTranslation('common');
  return (
    <Group className={classes.headerBar} justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="xs" wrap="nowrap" miw={0}>
        <Burger
          hiddenFrom="md"
          opened={menuOpened}
          onClick={onToggleMenu}
          size="sm"
          aria-label={menuOpened ? t('nav.closeMenu') : t('nav.openMenu')}
          aria-expanded={menuOpened}
          aria-controls="mobile-navigation"
        />
        <Link to={paths.home} className={classes.brand}>
          <img src="/logo.svg" alt="" width={44} height={44} />
          <span className={classes.brandTitle}>{labTitle}</span>
        </Link>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <Box visibleFrom="sm">
          <SearchBox hotkey />
        </Box>
        <Box visibleFrom="md">
          <DisplayControls />
        </Box>
        <Box hiddenFrom="md">
          <DisplayControlsMenu />
        </Box>
        {actions}
        <LanguageToggle />
      </Group>
    </Group>
  );
}
