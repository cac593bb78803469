import { AppShell, Box } from '@mantine/core';
import { useDisclosure, useElementSize, useMediaQuery } from '@mantine/hooks';
import { lazy, type ReactNode, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

import { NEWS_FLASH_HEIGHT_PX } from '#shared/constants.ts';

import { withMantineStyles } from '#web/lib/mantine-styles.ts';

import { NavBar } from '../nav-bar/nav-bar.tsx';
import type { NavEntry } from '../nav-bar/navigation.ts';
import { SearchBox } from '../search-box.tsx';
import {
  focusClosedNavigation,
  focusOpenedNavigation,
  focusPageHeading,
  focusPageTop,
  PAGE_TOP_ID,
  skipToFirstControl,
  skipToNavigation,
  wantsPageTop,
} from './focus-moves.ts';
import { HeaderBar } from './header-bar.tsx';
import classes from './layout.module.css';
import { SiteFooter } from './site-footer.tsx';

const NavList = lazy(withMantineStyles(() => import('../nav-bar/nav-list.tsx').then((m) => ({ default: m.NavList }))));

const HEADER_BAR_PX = 64;
const NAV_BAR_PX = 48;

export interface AppLayoutProps {
  labTitle: string;
  navigation: NavEntry[];
  onSignOut: () => void;
  newsFlash: ReactNode;
  /** Header actions of a signed-in person (the notification bell). */
  headerActions?: ReactNode;
  children: ReactNode;
}

/**
 * The portal chrome (spec §2): a skip link, the fixed 40px News Flash strip, the header, the navigation bar (a burger
 * drawer on small screens), the main area and the footer.
 */
export function AppLayout({ labTitle, navigation, onSignOut, newsFlash, headerActions, children }: AppLayoutProps) {
  const { t } = useTranslation('common');
  const [menuOpened, menu] = useDisclosure(false);
  const wide = useMediaQuery('(min-width: 62em)');
  const drawerShown = menuOpened && wide === false;
  const main = useRef<HTMLElement>(null);
  const drawer = useRef<HTMLDivElement>(null);
  const drawerWasShown = useRef(false);
  const { pathname, state: moveState, key: moveKey } = useLocation();
  const firstRender = useRef(true);
  // The header grows with the reader's text size and when the navigation wraps: the main area and the scroll padding
  // (web/app/global.css) follow its measured height, so nothing hides under it (WCAG 2.4.11).
  const { ref: headerRef, height: headerHeight } = useElementSize();
  const fallbackHeight = {
    base: NEWS_FLASH_HEIGHT_PX + HEADER_BAR_PX,
    md: NEWS_FLASH_HEIGHT_PX + HEADER_BAR_PX + NAV_BAR_PX,
  };

  // The narrow-screen navigation takes the focus when it opens (its first link) and gives it back to the menu button
  // when it closes (decision 032). Before the heading's effect below, so that a move to another page ends on its h1.
  useEffect(() => {
    if (drawerShown) {
      drawerWasShown.current = true;
      return drawer.current ? focusOpenedNavigation(drawer.current) : undefined;
    }
    if (drawerWasShown.current) {
      drawerWasShown.current = false;
      focusClosedNavigation(drawer.current);
    }
  }, [drawerShown]);

  // After a client-side move, put the keyboard and screen reader on the new page's heading (WCAG 2.4.3); not on the
  // first load, where the skip links come first. A sign-in that lands on a page nobody asked for puts the focus at the
  // top of the page instead, before the skip links, the header and the navigation (decision 100).
  const toTop = wantsPageTop(moveState);
  // The move's key too when it asks for the top: a sign-in may return to the path already shown.
  const topMove = toTop ? moveKey : null;
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    if (toTop) return focusPageTop();
    return main.current ? focusPageHeading(main.current) : undefined;
  }, [pathname, toTop, topMove]);

  return (
    <AppShell
      className={classes.root}
      header={{ height: headerHeight > 0 ? `calc(${Math.ceil(headerHeight)}px)` : fallbackHeight }}
      navbar={{ width: 300, breakpoint: 'md', collapsed: { mobile: !drawerShown, desktop: true } }}
      padding={0}
    >
      <AppShell.Header withBorder={false}>
        {/* The News Flash is drawn first (at the top) but comes after the header and the navigation in the Tab order
            (decision 100): its links are not in the way of the menu. */}
        <div ref={headerRef} className={classes.headerStack}>
          <span id={PAGE_TOP_ID} tabIndex={-1} className="visually-hidden">
            {t('pageTop')}
          </span>
          <a href="#main-content" className={classes.skipLink} onClick={skipToFirstControl}>
            {t('skipToContent')}
          </a>
          <a href="#main-navigation" className={classes.skipLink} onClick={skipToNavigation}>
            {t('skipToNavigation')}
          </a>
          <HeaderBar labTitle={labTitle} menuOpened={drawerShown} onToggleMenu={menu.toggle} actions={headerActions} />
          <Box visibleFrom="md" id="main-navigation" tabIndex={-1}>
            <NavBar entries={navigation} onSignOut={onSignOut} />
          </Box>
          <div className={classes.newsFlashSlot}>{newsFlash}</div>
        </div>
      </AppShell.Header>
      <AppShell.Navbar
        id="mobile-navigation"
        ref={drawer}
        p="md"
        style={{ overflowY: 'auto' }}
        hidden={!drawerShown}
        onKeyDown={(event) => {
          // Escape closes the navigation, unless it is closing the search box's open suggestions.
          const suggesting = (event.target as HTMLElement).getAttribute('aria-expanded') === 'true';
          if (event.key === 'Escape' && !event.defaultPrevented && !suggesting) menu.close();
        }}
      >
        {drawerShown && (
          <>
            <Box hiddenFrom="sm" mb="md">
              <SearchBox id="drawer-search" floatingNote={false} />
            </Box>
            <Suspense fallback={null}>
              <NavList entries={navigation} onSignOut={onSignOut} onNavigate={menu.close} />
            </Suspense>
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
