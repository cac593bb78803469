import { Suspense, useMemo } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { NotificationJson } from '#shared/schemas/notification.ts';
import { AppLayout } from '#web/components/layout/app-layout.tsx';
import { NewsFlash, type NewsFlashItem } from '#web/components/news-flash/news-flash.tsx';
import { PageLoader } from '#web/components/page-loader.tsx';
import { SessionTimeout } from '#web/features/auth/components/session-timeout.tsx';
import { newestDocuments, useLabDocuments } from '#web/features/labs/api.ts';
import { NotificationBell } from '#web/features/notifications/components/notification-bell.tsx';
import { paths } from '#web/lib/paths.ts';
import { useNavigation } from './use-navigation.ts';

/** Where a notice leads: a letter marked or sent back to me → my inbox; one I marked is overdue → that letter. */
const notificationLink = (n: NotificationJson) =>
  n.kind === 'letter_overdue' ? paths.letterSearch(n.subject.ref) : paths.inbox;

/** Wires the data of the chrome (session, lab, groups, notices) into the portal layout around every screen. */
export function RootLayout() {
  const { t } = useTranslation('common');
  const { session, lab, navigation } = useNavigation();
  const documents = useLabDocuments(lab.data?._id, { current: true });
  // Notices and circulars still valid, newest first (issue 4).
  const newsItems = useMemo<NewsFlashItem[]>(() => newestDocuments(documents.data), [documents.data]);

  return (
    <AppLayout
      labTitle={lab.data?.name || t('appTitle')}
      navigation={navigation}
      onSignOut={session.signOut}
      newsFlash={<NewsFlash items={newsItems} loading={lab.isPending || (Boolean(lab.data) && documents.isPending)} />}
      // Issue 17: the notification bell of a signed-in person.
      headerActions={session.isSignedIn ? <NotificationBell linkFor={notificationLink} /> : undefined}
    >
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
      <SessionTimeout />
    </AppLayout>
  );
}
