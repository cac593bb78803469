import { lazy, Suspense, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration } from 'react-router';

import type { NotificationJson } from '#shared/schemas/notification.ts';

import { AppLayout } from '#web/components/layout/app-layout.tsx';
import { NewsFlash, type NewsFlashItem } from '#web/components/news-flash/news-flash.tsx';
import { PageLoader } from '#web/components/page-loader.tsx';
import { newestDocuments, useLabDocuments } from '#web/features/labs/api.ts';
import { getStoredToken, subscribeToLogin } from '#web/lib/auth-storage.ts';
import { withMantineStyles } from '#web/lib/mantine-styles.ts';
import { paths } from '#web/lib/paths.ts';

import { useNavigation } from './use-navigation.ts';

// Parts only a signed-in person meets load with their first signed-in page, not with a visitor's first load.
const SessionTimeout = lazy(
  withMantineStyles(() =>
    import('#web/features/auth/components/session-timeout.tsx').then((m) => ({ default: m.SessionTimeout })),
  ),
);
const StepUpDialog = lazy(
  withMantineStyles(() =>
    import('#web/features/auth/components/step-up-dialog.tsx').then((m) => ({ default: m.StepUpDialog })),
  ),
);
const NotificationBell = lazy(
  withMantineStyles(() =>
    import('#web/features/notifications/components/notification-bell.tsx').then((m) => ({
      default: m.NotificationBell,
    })),
  ),
);
const AcknowledgementEntry = lazy(
  withMantineStyles(() =>
    import('#web/features/acknowledgements/components/acknowledgement-entry.tsx').then((m) => ({
      default: m.AcknowledgementEntry,
    })),
  ),
);

/** True from the first moment a sign-in is stored: the timeout warning then stays mounted, through the expiry too. */
function useEverSignedIn() {
  const hasToken = useSyncExternalStore(
    subscribeToLogin,
    () => getStoredToken() !== null,
    () => false,
  );
  const [ever, setEver] = useState(hasToken);
  if (hasToken && !ever) setEver(true);
  return ever;
}

/**
 * Where a notice leads: a letter marked or sent back to me, due tomorrow or overdue with me → my inbox; one I marked
 * is overdue → that letter; one overdue in my group → the pendency view; a notice or circular to acknowledge → my "To
 * acknowledge" list; a close group ending → the close groups; a registration (admins) → the approvals; a refused directory
 * entry whose mail was another account's (admins) → the activity log.
 */
function notificationLink(n: NotificationJson): string {
  switch (n.kind) {
    case 'acknowledgement_due':
    case 'acknowledgement_overdue':
    case 'acknowledgement_requested':
      return paths.acknowledgements;
    case 'letter_overdue':
      return paths.letterSearch(n.subject.ref);
    case 'letter_escalated':
      return paths.pendency;
    case 'close_group_ending':
      return paths.closeGroupDocs;
    case 'registration_received':
    case 'sso_link_requested':
      return paths.admin.approval;
    case 'directory_mail_collision':
      // Decision 094: the activity log names the entry that was refused.
      return paths.admin.logs;
    case 'malware_detected':
      // Decision 115: the audit trail records the refused upload, its signature and who sent it.
      return paths.admin.auditTrail;
    default:
      return paths.inbox;
  }
}

/** Wires the data of the chrome (session, lab, groups, notices) into the portal layout around every screen. */
export function RootLayout() {
  const { t } = useTranslation('common');
  const { session, lab, navigation } = useNavigation();
  const documents = useLabDocuments(lab.data?._id, { current: true });
  // Notices and circulars still valid, newest first (decision 010).
  const everSignedIn = useEverSignedIn();
  const newsItems = useMemo<NewsFlashItem[]>(() => newestDocuments(documents.data), [documents.data]);

  return (
    <AppLayout
      labTitle={lab.data?.name || t('appTitle')}
      navigation={navigation}
      onSignOut={session.signOut}
      newsFlash={<NewsFlash items={newsItems} loading={lab.isPending || (Boolean(lab.data) && documents.isPending)} />}
      // Decision 020: the notification bell of a signed-in person; : on a phone, the count of what they are asked
      // to acknowledge (the navigation carries it on wider screens).
      headerActions={
        session.isSignedIn ? (
          <Suspense fallback={null}>
            <AcknowledgementEntry to={paths.acknowledgements} />
            <NotificationBell linkFor={notificationLink} />
          </Suspense>
        ) : undefined
      }
    >
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
      {everSignedIn && (
        <Suspense fallback={null}>
          <SessionTimeout />
          <StepUpDialog />
        </Suspense>
      )}
    </AppLayout>
  );
}
