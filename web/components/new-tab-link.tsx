import { Anchor, type AnchorProps, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A link to a file that opens in a new tab, and says so to screen readers. */
export function NewTabLink({ href, children, ...props }: AnchorProps & { href: string; children: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" {...props}>
      {children}
      <VisuallyHidden>{t('opensInNewTab')}</VisuallyHidden>
    </Anchor>
  );
}

/** An item's name in bold: a link to its file (new tab) when it has one (notices, circulars, products, files). */
export function FileTitle({ name, fileUrl, span }: { name: string; fileUrl: string | null; span?: boolean }) {
  return fileUrl ? (
    <NewTabLink href={fileUrl} fw={600}>
      {name}
    </NewTabLink>
  ) : (
    <Text fw={600} span={span}>
      {name}
    </Text>
  );
}
