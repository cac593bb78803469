import { useEffect, useRef, type ReactNode } from 'react';
import { AppShell, Box } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { NEWS_FLASH_HEIGHT_PX } from '#shared/constants.ts';
import { NavBar, NavList } from '../nav-bar/nav-bar.tsx';
import type { NavEntry } from '../nav-bar/navigation.ts';
import { SearchBox } from '../search-box.tsx';
import { HeaderBar } from './header-bar.tsx';
import { SiteFooter } from './site-footer.tsx';
import classes from './layout.module.css';

const HEADER_BAR_PX = 64;
const NAV_BAR_PX = 48;

export interface AppLayoutProps {
  labTitle: string;
  signedIn: boolean;
  navigation: NavEntry[];
  onSignOut: () => void;
  newsFlash: ReactNode;
  children: ReactNode;
}

/**
 * The portal chrome (spec §2): a skip link, the fixed 40px News Flash strip, the header, the navigation bar (a burger
 * drawer on small screens), the main area and the footer.
 */
export function AppLayout({ labTitle, signedIn, navigation, onSignOut, newsFlash, children }: AppLayoutProps) {
  const { t } = useTranslation('common');
  const [menuOpened, menu] = useDisclosure(false);
  const wide = useMediaQuery('(min-width: 62em)');
  const drawerShown = menuOpened && wide === false;
  const main = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const firstRender = useRef(true);

  // After a client-side move, put the keyboard and screen reader at the start of the new page (WCAG 2.4.3).
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    main.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <AppShell
      className={classes.root}
      header={{
        height: { base: NEWS_FLASH_HEIGHT_PX + HEADER_BAR_PX, md: NEWS_FLASH_HEIGHT_PX + HEADER_BAR_PX + NAV_BAR_PX },
      }}
      navbar={{ width: 300, breakpoint: 'md', collapsed: { mobile: !drawerShown, desktop: true } }}
      padding={0}
    >
      <AppShell.Header withBorder={false}>
        <a href="#main-content" className={classes.skipLink}>
          {t('skipToContent')}
        </a>
        {newsFlash}
        <HeaderBar labTitle={labTitle} signedIn={signedIn} menuOpened={drawerShown} onToggleMenu={menu.toggle} />
        <Box visibleFrom="md">
          <NavBar entries={navigation} onSignOut={onSignOut} />
        </Box>
      </AppShell.Header>
      <AppShell.Navbar id="mobile-navigation" p="md" style={{ overflowY: 'auto' }} hidden={!drawerShown}>
        {drawerShown && (
          <>
            <Box hiddenFrom="sm" mb="md">
              <SearchBox signedIn={signedIn} id="drawer-search" />
            </Box>
            <NavList entries={navigation} onSignOut={onSignOut} onNavigate={menu.close} />
          </>
        )}
      </AppShell.Navbar>
      <AppShell.Main id="main-content" ref={main} tabIndex={-1} className={classes.main}>
        <Box maw={1280} mx="auto" px={{ base: 'sm', sm: 'lg' }} py="lg">
          {children}
        </Box>
      </AppShell.Main>
      <SiteFooter labTitle={labTitle} />
    </AppShell>
  );
}
