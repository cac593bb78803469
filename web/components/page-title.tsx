import { Title, type TitleProps } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';

/**
 * The one h1 of a page; also names the browser tab ("Title – Lab Portal", WCAG 2.4.2). Every screen uses it once.
 * It takes the focus after each move between pages (tabIndex -1: reachable by script, not a Tab stop; app-layout.tsx).
 */
export function PageTitle({ children, ...props }: Omit<TitleProps, 'order' | 'children'> & { children: string }) {
  const { t } = useTranslation('common');
  useDocumentTitle(`${children} – ${t('appTitle')}`);
  return (
    <Title order={1} size="h2" mb="md" tabIndex={-1} {...props}>
      {children}
    </Title>
  );
}
