import '@mantine/dates/styles.layer.css';
import 'dayjs/locale/hi';

import { DateInput, type DateInputProps, DatesProvider } from '@mantine/dates';
import { useTranslation } from 'react-i18next';

import { parseDateInput } from '#web/lib/parse-date.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

export interface DateFieldProps extends Omit<DateInputProps, 'value' | 'onChange' | 'valueFormat' | 'dateParser'> {
  /** YYYY-MM-DD, or '' / null for none. */
  value?: string | null;
  onChange?: (value: string) => void;
  /** A date of birth: the empty calendar opens about 30 years back, not on this month. */
  birthDate?: boolean;
}

/** The month an empty date-of-birth calendar opens on: 30 years before today (YYYY-MM-DD). */
export function birthCalendarStart(today = new Date()): string {
  const start = new Date(Date.UTC(today.getFullYear() - 30, today.getMonth(), 1));
  return start.toISOString().slice(0, 10);
}

/**
 * A date input that shows dates the Indian way (21 Nov 2026, shared/format.ts) and reads typed dates day-first;
 * the value stays YYYY-MM-DD ('' when empty), as the API and the shared schemas expect. Works with form.getInputProps.
 * Its clear button is named after the field ("Clear Date of Birth"), as every button needs a name (WCAG 4.1.2), and so
 * are the calendar's previous/next and level buttons, in the chosen language. Days of the next and previous month are
 * left out (Mantine draws them at half opacity, below 4.5:1) and weekends are a red dark enough to read.
 * A date of birth (`birthDate`) opens its calendar 30 years back.
 * The dates provider lives here, not around the whole app, so dayjs loads only with a screen that has a date
 * field.
 */
export function DateField({ value, onChange, birthDate, ...props }: DateFieldProps) {
  const { formatDate } = useFormatDate();
  const { t, i18n } = useTranslation('common');
  return (
    <DatesProvider settings={{ locale: i18n.language === 'hi' ? 'hi' : 'en', firstDayOfWeek: 1 }}>
      <DateInput
        placeholder={t('dateField.placeholder')}
        clearable
        clearButtonProps={{
          'aria-label':
            typeof props.label === 'string'
              ? t('dateField.clear', { label: props.label })
              : t('dateField.clearUnnamed'),
        }}
        ariaLabels={{
          previousMonth: t('dateField.previousMonth'),
          nextMonth: t('dateField.nextMonth'),
          previousYear: t('dateField.previousYear'),
          nextYear: t('dateField.nextYear'),
          previousDecade: t('dateField.previousDecade'),
          nextDecade: t('dateField.nextDecade'),
        }}
        hideOutsideDates
        // Rendered beside its field, inside the page's landmarks (axe region), not in a portal at the end of <body>;
        // below the field, never flipped over its own label and the fields above it.
        popoverProps={{ withinPortal: false, zIndex: 300, position: 'bottom-start', middlewares: { flip: false } }}
        {...(birthDate && { defaultDate: birthCalendarStart() })}
        {...props}
        value={value || null}
        onChange={(next) => onChange?.(next ?? '')}
        valueFormat={(date) => formatDate(date, '')}
        dateParser={parseDateInput}
      />
    </DatesProvider>
  );
}
