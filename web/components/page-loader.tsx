import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown while a screen's code or texts load. */
export function PageLoader() {
  const { t, ready } = useTranslation('common', { useSuspense: false });
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader size="md" aria-hidden="true" />
      <span className="visually-hidden">{ready ? t('loading') : 'Loading...'}</span>
    </Center>
  );
}
