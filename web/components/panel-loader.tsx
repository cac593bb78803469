import { Center, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A small spinner with its label ('Loading...' unless told) while one panel of a screen loads. */
export function PanelLoader({ label }: { label?: string }) {
  const { t } = useTranslation('common');
  return (
    <Center py="md" role="status">
      <Loader size="sm" aria-hidden="true" />
      <Text size="sm" ml="sm">
        {label ?? t('loading')}
      </Text>
    </Center>
  );
}
