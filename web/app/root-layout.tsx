import { Suspense, useMemo } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AppLayout } from '#web/components/layout/app-layout.tsx';
import { NewsFlash, type NewsFlashItem } from '#web/components/news-flash/news-flash.tsx';
import { buildNavigation } from '#web/components/nav-bar/navigation.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { useGroupNames } from '#web/features/groups/api.ts';
import { newestDocuments, useLabDocuments, useOnlyLab } from '#web/features/labs/api.ts';

/** Wires the data of the chrome (session, lab, groups, notices) into the portal layout around every screen. */
export function RootLayout() {
  const { t } = useTranslation('common');
  const session = useSession();
  const lab = useOnlyLab();
  const documents = useLabDocuments(lab.data?._id, { current: true });
  const groups = useGroupNames({ enabled: session.isSignedIn });

  const navigation = buildNavigation({
    role: session.role,
    groups: session.isSignedIn ? (groups.data ?? []) : [],
    noLabYet: lab.data === null,
  });
  // Notices and circulars still valid, newest first (issue 4).
  const newsItems = useMemo<NewsFlashItem[]>(() => newestDocuments(documents.data), [documents.data]);

  return (
    <AppLayout
      labTitle={lab.data?.name || t('appTitle')}
      signedIn={session.isSignedIn}
      navigation={navigation}
      onSignOut={session.signOut}
      newsFlash={<NewsFlash items={newsItems} loading={lab.isPending || (Boolean(lab.data) && documents.isPending)} />}
    >
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </AppLayout>
  );
}
