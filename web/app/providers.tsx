import { MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { notifications, useNotifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';

import i18n from '#web/i18n/index.ts';
import { useDisplayPreferences } from '#web/lib/display-preferences.ts';
import { withMantineStyles } from '#web/lib/mantine-styles.ts';
import { queryClient } from '#web/lib/query-client.ts';

import { cssVariablesResolver, highContrastTheme, highContrastVariablesResolver, theme } from './theme.ts';

const LazyNotifications = lazy(withMantineStyles(() => import('./toasts.tsx')));

/**
 * The toasts (at most 20: spec §9). Their code (and its transitions) loads with the first toast shown, not with the
 * first page: a visitor reading the home page never needs it. notifications.show() only fills a store,
 * which the toasts read when they mount, so nothing shown before they load is lost. A change of language closes the
 * toasts on screen: their words were chosen when they were raised, and would stay in the language just left.
 */
function Toasts() {
  const count = useNotifications().notifications.length;
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const closeAll = () => notifications.clean();
    i18n.on('languageChanged', closeAll);
    return () => i18n.off('languageChanged', closeAll);
  }, []);
  if (count > 0 && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <LazyNotifications />
    </Suspense>
  ) : null;
}

/**
 * The theme with the texts Mantine renders itself in the chosen language (toast and dialog close buttons need a name),
 * in the reader's contrast (web/lib/display-preferences.ts).
 */
function LocalisedMantine({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const { contrast } = useDisplayPreferences();
  const closeLabel = t('closeNotification');
  const closeDialog = t('closeDialog');
  const togglePassword = t('togglePassword');
  const localised = useMemo(
    () =>
      mergeThemeOverrides(theme, contrast === 'high' ? highContrastTheme : {}, {
        components: {
          Notification: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
          PasswordInput: { defaultProps: { visibilityToggleButtonProps: { 'aria-label': togglePassword } } },
          // A dialog's <header> is not a second banner landmark (axe landmark-no-duplicate-banner, decision 018): the
          // dialog role on Mantine's <section> hides the section that would otherwise scope it.
          Modal: {
            defaultProps: { closeButtonProps: { 'aria-label': closeDialog }, attributes: { header: { role: 'none' } } },
          },
          Drawer: {
            defaultProps: { closeButtonProps: { 'aria-label': closeDialog }, attributes: { header: { role: 'none' } } },
          },
        },
      }),
    [closeLabel, closeDialog, togglePassword, contrast],
  );
  return (
    <MantineProvider
      theme={localised}
      cssVariablesResolver={contrast === 'high' ? highContrastVariablesResolver : cssVariablesResolver}
      defaultColorScheme="light"
    >
      {children}
    </MantineProvider>
  );
}

/** Everything every screen relies on: Mantine (toasts, at most 20: spec §9), TanStack Query and i18n. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <LocalisedMantine>
        {/* Toasts sit below the fixed header (web/app/global.css) so they never cover the News Flash's Pause button. */}
        <Toasts />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </LocalisedMantine>
    </I18nextProvider>
  );
}
