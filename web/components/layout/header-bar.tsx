import { Box, Burger, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { LanguageToggle } from '../language-toggle.tsx';
import { SearchBox } from '../search-box.tsx';
import classes from './layout.module.css';

export interface HeaderBarProps {
  labTitle: string;
  signedIn: boolean;
  menuOpened: boolean;
  onToggleMenu: () => void;
}

/** The top bar: logo and lab title (a link to /), the search box and the language toggle; a burger on small screens. */
export function HeaderBar({ labTitle, signedIn, menuOpened, onToggleMenu }: HeaderBarProps) {
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
      <Group gap="sm" wrap="nowrap">
        <Box visibleFrom="sm">
          <SearchBox signedIn={signedIn} />
        </Box>
        <LanguageToggle />
      </Group>
    </Group>
  );
}
