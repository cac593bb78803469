import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { type DateLanguage, formatDate, formatDateTime } from '#shared/format.ts';

type DateValue = string | number | Date | null | undefined;

export interface DateFormatters {
  /** "21 Nov 2026", in Hindi "21 नव॰ 2026"; `fallback` (default "N/A", in Hindi उपलब्ध नहीं) when there is no date. */
  formatDate: (value: DateValue, fallback?: string) => string;
  /** "21 Nov 2026, 3:05 pm", in Hindi "21 नव॰ 2026, 3:05 अपराह्न"; `fallback` when there is no time. */
  formatDateTime: (value: DateValue, fallback?: string) => string;
}

/** The language dates are written in for a react-i18next language ('hi', 'hi-IN' → Hindi; anything else English). */
export const dateLanguageOf = (language: string | undefined): DateLanguage =>
  language?.startsWith('hi') ? 'hi' : 'en';

/**
 * shared/format.ts's Indian dates in the reader's language: day first and 12-hour in both, the month and
 * am/pm in Hindi when the portal is in Hindi. The component re-renders, and its dates change, on a language switch.
 */
export function useFormatDate(): DateFormatters {
  const { t, i18n } = useTranslation('common');
  const language = dateLanguageOf(i18n.language);
  const notAvailable = t('notAvailable');
  return useMemo(
    () => ({
      formatDate: (value, fallback = notAvailable) => formatDate(value, fallback, language),
      formatDateTime: (value, fallback = notAvailable) => formatDateTime(value, fallback, language),
    }),
    [language, notAvailable],
  );
}
