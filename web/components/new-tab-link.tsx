import { Anchor, type AnchorProps, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { DocumentThumbnail, ViewDocument } from './document-viewer/view-document.tsx';

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

/**
 * An item's name in bold: a link to its file (new tab) when it has one (notices, circulars, products, files), with its
 * thumbnail before it and "View" (the portal's viewer) after it.
 */
export function FileTitle({ name, fileUrl, span }: { name: string; fileUrl: string | null; span?: boolean }) {
  return fileUrl ? (
    <>
      <DocumentThumbnail fileUrl={fileUrl} />
      <NewTabLink href={fileUrl} fw={600}>
        {name}
      </NewTabLink>
      <ViewDocument fileUrl={fileUrl} name={name} />
    </>
  ) : (
    <Text fw={600} span={span}>
      {name}
    </Text>
  );
}
