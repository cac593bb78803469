import { useTranslation } from 'react-i18next';
import { DateField, type DateFieldProps } from '#web/components/date-field.tsx';

/** The portal's DateField whose clear button has a spoken name ("Clear Date of Birth"), as axe asks of every button. */
export function LabelledDateField(props: DateFieldProps & { label: string }) {
  const { t } = useTranslation('people');
  return <DateField clearButtonProps={{ 'aria-label': t('clearDate', { label: props.label }) }} {...props} />;
}
