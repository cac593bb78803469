import { Anchor, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { needsStepUp } from '#web/lib/api-client.ts';
import { withMantineStyles } from '#web/lib/mantine-styles.ts';

import { previewLineQuery, previewQuery, storedFile } from './stored-file.ts';

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
export function ViewDocument({
  fileUrl,
  name,
  fileName,
  find,
  textState = true,
}: {
  fileUrl: string;
  name: string;
  fileName?: string | null;
  /** A word to find and mark as the viewer opens (a search hit). */
  find?: string;
  /** Whether "Text recognised" (or why not) follows "View", for a scan (decision 113). */
  textState?: boolean;
}) {
  const { t } = useTranslation('common');
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [asking, setAsking] = useState(false);
  const file = storedFile(fileUrl);
  if (!file) return null;
  const scanLine = textState && <DocumentTextState fileUrl={fileUrl} fileName={fileName} />;
  if (fileName && !VIEWABLE.test(fileName)) return scanLine || null;
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
      {scanLine}
      {open && (
        <Suspense fallback={null}>
          <DocumentViewer fileUrl={fileUrl} name={name} find={find} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

/** The files OCR reads (decision 113): PDFs and images. */
const SCANNABLE = /\.(pdf|png|jpe?g|tiff?)$/i;
/** How often a card asks again while a scan's text is being recognised. */
const PENDING_REFRESH_MS = 10_000;

/**
 * "Text recognised", or "Text not recognised" and why, or that it is being recognised: for a scan on a card (a
 * letter, a close-group document, a notice, a correspondence item). Nothing for a file OCR does not read, nor for a
 * classified one before the step-up (its viewer says it after the check).
 */
export function DocumentTextState({ fileUrl, fileName }: { fileUrl: string; fileName?: string | null }) {
  const { t } = useTranslation('common');
  const file = storedFile(fileUrl);
  const known = !fileName || SCANNABLE.test(fileName);
  const state = useQuery({
    ...previewLineQuery(file ?? { area: '', name: '' }),
    enabled: !!file && known,
    refetchInterval: (query) => (query.state.data?.text?.status === 'pending' ? PENDING_REFRESH_MS : false),
  });
  const text = state.data?.text;
  if (!text || text.status === 'not_needed') return null;
  const words =
    text.status === 'done'
      ? t('viewer.textRecognised')
      : text.status === 'pending'
        ? t('viewer.textPendingShort')
        : t('viewer.textNotRecognised', { reason: t(`viewer.textReason_${text.reason ?? 'unreadable'}`) });
  return (
    <Text size="sm" c="gray.7" span>
      {words}
    </Text>
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
