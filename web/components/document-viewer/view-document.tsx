import { Anchor } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { needsStepUp } from '#web/lib/api-client.ts';
import { withMantineStyles } from '#web/lib/mantine-styles.ts';

import { previewQuery, storedFile } from './stored-file.ts';

// The viewer (and pdfjs-dist inside it) loads on first use only: the first page stays under its budget (decision 085).
const DocumentViewer = lazy(withMantineStyles(() => import('./document-viewer.tsx')));

/** The kinds of file the viewer shows: PDFs, and Office files as the PDF they were converted to. */
const VIEWABLE = /\.(pdf|docx?|xlsx?|pptx?|odt)$/i;

/**
 * "View": opens the document in the portal's viewer, under the download's rules. With the file's own name
 * (`fileName`), only for the kinds the viewer shows. The check comes first (decision 095): the document's preview state
 * is read through the API before the viewer mounts, so a document behind the step-up brings up "Confirm it is you"
 * on the page itself, and the viewer opens once it is given; cancelled, the viewer does not open. Any other refusal
 * opens the viewer, which words it.
 */
export function ViewDocument({ fileUrl, name, fileName }: { fileUrl: string; name: string; fileName?: string | null }) {
  const { t } = useTranslation('common');
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [asking, setAsking] = useState(false);
  const file = storedFile(fileUrl);
  if (!file || (fileName && !VIEWABLE.test(fileName))) return null;
  const view = () => {
    if (asking) return;
    setAsking(true);
    // Always asked of the server (staleTime 0): a state kept from a minute ago says nothing of the session now.
    queryClient
      .fetchQuery({ ...previewQuery(file), staleTime: 0 })
      .then(
        () => setOpen(true),
        (err: unknown) => !needsStepUp(err) && setOpen(true),
      )
      .finally(() => setAsking(false));
  };
  return (
    <>
      <Anchor
        component="button"
        type="button"
        size="sm"
        fw={600}
        onClick={view}
        aria-label={t('viewer.viewNamed', { name })}
        aria-haspopup="dialog"
        aria-busy={asking || undefined}
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
