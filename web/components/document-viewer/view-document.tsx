import { Anchor } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { withMantineStyles } from '#web/lib/mantine-styles.ts';

import { storedFile } from './stored-file.ts';

// The viewer (and pdfjs-dist inside it) loads on first use only: the first page stays under its budget (issue 33).
const DocumentViewer = lazy(withMantineStyles(() => import('./document-viewer.tsx')));

/** The kinds of file the viewer shows: PDFs, and Office files as the PDF they were converted to. */
const VIEWABLE = /\.(pdf|docx?|xlsx?|pptx?|odt)$/i;

/**
 * "View": opens the document in the portal's viewer (issue 33), under the download's rules. With the file's own name
 * (`fileName`), only for the kinds the viewer shows.
 */
export function ViewDocument({ fileUrl, name, fileName }: { fileUrl: string; name: string; fileName?: string | null }) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(false);
  if (!storedFile(fileUrl) || (fileName && !VIEWABLE.test(fileName))) return null;
  return (
    <>
      <Anchor
        component="button"
        type="button"
        size="sm"
        fw={600}
        onClick={() => setOpen(true)}
        aria-label={t('viewer.viewNamed', { name })}
        aria-haspopup="dialog"
      >
        {t('viewer.view')}
      </Anchor>
      {open && (
        <Suspense fallback={null}>
          <DocumentViewer fileUrl={fileUrl} name={name} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

/**
 * A document's thumbnail (its first page, or the image made small), made by the job queue after upload; nothing where
 * there is none (not made yet, not a PDF or image, or classified material).
 */
export function DocumentThumbnail({ fileUrl }: { fileUrl: string }) {
  const [failed, setFailed] = useState(false);
  if (failed || !storedFile(fileUrl)) return null;
  return (
    <img
      src={`${fileUrl}/thumbnail`}
      alt=""
      width={48}
      height={48}
      loading="lazy"
      data-thumbnail
      style={{ objectFit: 'contain', border: '1px solid var(--mantine-color-gray-3)', background: 'white' }}
      onError={() => setFailed(true)}
    />
  );
}
