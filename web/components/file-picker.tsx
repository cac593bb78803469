import { FileInput, type FileInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export type FilePickerProps = Omit<FileInputProps<false>, 'multiple'>;

/**
 * The one file field of the portal: says "Choose a file" until one is chosen (a blank box told nothing),
 * in a grey that keeps 4.5:1, and can be cleared with a named button. Used by /closeGroup and /dac alike.
 */
export function FilePicker({ styles, clearButtonProps, ...props }: FilePickerProps) {
  const { t } = useTranslation('common');
  return (
    <FileInput
      placeholder={t('filePicker.choose')}
      clearable
      clearButtonProps={{ 'aria-label': t('filePicker.clear'), ...clearButtonProps }}
      // The placeholder is real text here (a span, not ::placeholder): gray 7 keeps it above 4.5:1.
      styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' }, ...(typeof styles === 'object' ? styles : {}) }}
      {...props}
    />
  );
}
