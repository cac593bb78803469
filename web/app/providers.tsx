import { useMemo, type ReactNode } from 'react';
import { MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider, useTranslation } from 'react-i18next';
import 'dayjs/locale/hi';
import { TOAST_LIMIT } from '#shared/constants.ts';
import i18n from '#web/i18n/index.ts';
import { queryClient } from '#web/lib/query-client.ts';
import { cssVariablesResolver, theme } from './theme.ts';

/** Date pickers follow the chosen language; weeks start on Monday as Indian calendars print them. */
function LocalisedDates({ children }: { children: ReactNode }) {
  const { i18n: current } = useTranslation();
  return (
    <DatesProvider settings={{ locale: current.language === 'hi' ? 'hi' : 'en', firstDayOfWeek: 1 }}>
      {children}
    </DatesProvider>
  );
}

/** The theme with the texts Mantine renders itself in the chosen language (toast and dialog close buttons need a name). */
function LocalisedMantine({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const closeLabel = t('closeNotification');
  const closeDialog = t('closeDialog');
  const localised = useMemo(
    () =>
      mergeThemeOverrides(theme, {
        components: {
          Notification: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
          Modal: { defaultProps: { closeButtonProps: { 'aria-label': closeDialog } } },
          Drawer: { defaultProps: { closeButtonProps: { 'aria-label': closeDialog } } },
        },
      }),
    [closeLabel, closeDialog],
  );
  return (
    <MantineProvider theme={localised} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      {children}
    </MantineProvider>
  );
}

/** Everything every screen relies on: Mantine (toasts, at most 20: spec §9), TanStack Query and i18n. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <LocalisedMantine>
        <Notifications limit={TOAST_LIMIT} position="top-right" zIndex={1000} />
        <QueryClientProvider client={queryClient}>
          <LocalisedDates>{children}</LocalisedDates>
        </QueryClientProvider>
      </LocalisedMantine>
    </I18nextProvider>
  );
}
