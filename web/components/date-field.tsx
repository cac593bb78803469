import '@mantine/dates/styles.css';
import { DateInput, type DateInputProps } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { formatDate } from '#shared/format.ts';
import { parseDateInput } from '#web/lib/parse-date.ts';

export interface DateFieldProps extends Omit<DateInputProps, 'value' | 'onChange' | 'valueFormat' | 'dateParser'> {
  /** YYYY-MM-DD, or '' / null for none. */
  value?: string | null;
  onChange?: (value: string) => void;
}

/**
 * A date input that shows dates the Indian way (21 Nov 2026, shared/format.ts) and reads typed dates day-first;
 * the value stays YYYY-MM-DD ('' when empty), as the API and the shared schemas expect. Works with form.getInputProps.
 * Its clear button is named after the field ("Clear Date of Birth"), as every button needs a name (WCAG 4.1.2).
 */
export function DateField({ value, onChange, ...props }: DateFieldProps) {
  const { t } = useTranslation('common');
  return (
    <DateInput
      placeholder={t('dateField.placeholder')}
      clearable
      clearButtonProps={{
        'aria-label':
          typeof props.label === 'string' ? t('dateField.clear', { label: props.label }) : t('dateField.clearUnnamed'),
      }}
      {...props}
      value={value || null}
      onChange={(next) => onChange?.(next ?? '')}
      valueFormat={(date) => formatDate(date, '')}
      dateParser={parseDateInput}
    />
  );
}
