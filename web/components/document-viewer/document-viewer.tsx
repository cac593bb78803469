// The text layer's rules (pdf.js): its words over the page, transparent, to select and find (decision 113).
import './text-layer.css';

import { Alert, Anchor, Button, Group, Loader, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useElementSize, useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { PDFDocumentProxy, TextLayer } from 'pdfjs-dist';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { VIEWER_RANGE_BYTES } from '#shared/constants.ts';

import { getToken } from '#web/lib/auth-storage.ts';

import { previewQuery, type PreviewState, storedFile } from './stored-file.ts';

/**
 * The portal's document viewer (decision 085): a dialog showing the document's PDF (the file itself, or the
 * PDF an Office file was converted to) with pdfjs-dist, page by page, read with HTTP ranges so a long document's first
 * page shows before the rest is fetched. Pages, zoom, search, download and print, each a labelled control. Each page
 * carries its text layer (pdf.js), so a scan's recognised text (its searchable copy, decision 113) can be selected and
 * found; opened from a search (`find`), the viewer goes to the first page with the word and marks it.
 */
export default function DocumentViewer({
  fileUrl,
  name,
  onClose,
  find,
}: {
  fileUrl: string;
  name: string;
  onClose: () => void;
  find?: string;
}) {
  const { t } = useTranslation('common');
  const narrow = useMediaQuery('(max-width: 40em)', false);
  const file = storedFile(fileUrl)!;
  // Read just before the viewer was opened (ViewDocument): the answer it was given, not asked again.
  const state = useQuery(previewQuery(file));
  const download = (
    <Anchor href={fileUrl} download fw={600}>
      {t('viewer.download')}
    </Anchor>
  );
  return (
    <Modal
      opened
      onClose={onClose}
      title={name}
      size="min(100%, 60rem)"
      fullScreen={narrow}
      closeButtonProps={{ 'aria-label': t('closeNotification') }}
    >
      {state.isPending ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text>{t('viewer.loading')}</Text>
        </Group>
      ) : state.data?.status === 'ready' && state.data.pdfUrl ? (
        <Stack gap="xs">
          <TextState text={state.data.text} />
          <PdfView url={state.data.pdfUrl} name={name} download={download} find={find} />
        </Stack>
      ) : (
        <Stack gap="sm">
          <TextState text={state.data?.text ?? null} />
          <Alert color={state.data?.status === 'pending' ? 'blue' : 'gray'} role="status">
            {state.data?.status === 'pending'
              ? t('viewer.pending')
              : state.isError
                ? t('viewer.failed')
                : t('viewer.unavailable')}
          </Alert>
          {download}
        </Stack>
      )}
    </Modal>
  );
}

/** Whether a scan's text was recognised (decision 113): said above the document, or why not. */
export function TextState({ text }: { text: PreviewState['text'] }) {
  const { t } = useTranslation('common');
  if (!text || text.status === 'not_needed') return null;
  const words =
    text.status === 'done'
      ? t('viewer.textRecognised')
      : text.status === 'pending'
        ? t('viewer.textPending')
        : t('viewer.textNotRecognised', { reason: t(`viewer.textReason_${text.reason ?? 'unreadable'}`) });
  return (
    <Text size="sm" c={text.status === 'failed' ? 'dimmed' : undefined} role="status">
      {words}
    </Text>
  );
}

type PdfDocument = PDFDocumentProxy;

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

/** Where the text layer marks the word searched for: a light yellow under the transparent text. */
const FOUND_BACKGROUND = 'rgb(255 212 0 / 0.45)';

function PdfView({
  url,
  name,
  download,
  find,
}: {
  url: string;
  name: string;
  download: React.ReactNode;
  find?: string;
}) {
  const { t } = useTranslation('common');
  const [doc, setDoc] = useState<PdfDocument | null>(null);
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(1);
  const [zoom, setZoom] = useState(2); // index in ZOOMS: 100 %, the page's width fitted to the dialog
  const [query, setQuery] = useState(find ?? '');
  const [found, setFound] = useState<string>('');
  // The word marked in the page's text layer: the one last found.
  const [marked, setMarked] = useState('');
  const canvas = useRef<HTMLCanvasElement>(null);
  const textLayer = useRef<HTMLDivElement>(null);
  // The page is drawn to the box's width, and again when that changes: a dialog still opening measures 0, and a phone
  // turned on its side is wider.
  const { ref: box, width: boxWidth } = useElementSize<HTMLDivElement>();

  useEffect(() => {
    let gone = false;
    let loaded: PdfDocument | undefined;
    void (async () => {
      const pdfjs = await import('pdfjs-dist');
      const worker = await import('pdfjs-dist/build/pdf.worker.min.mjs?url');
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      const token = getToken();
      // Ranges only, fetched as needed: the first page of a 200-page PDF shows after a small part of it (decision 085;
      // a long PDF is read with the viewer's update appended, decision 088).
      const task = pdfjs.getDocument({
        url,
        disableAutoFetch: true,
        disableStream: true,
        rangeChunkSize: VIEWER_RANGE_BYTES,
        httpHeaders: token ? { Authorization: `Bearer ${token}` } : undefined,
        isEvalSupported: false,
      });
      loaded = await task.promise;
      if (gone) return void loaded.destroy();
      setDoc(loaded);
    })().catch(() => !gone && setFailed(true));
    return () => {
      gone = true;
      void loaded?.destroy();
    };
  }, [url]);

  useEffect(() => {
    if (!doc || !canvas.current || boxWidth < 1) return;
    let cancelled = false;
    let render: { cancel: () => void; promise: Promise<void> } | undefined;
    let layer: TextLayer | undefined;
    void (async () => {
      const p = await doc.getPage(page);
      if (cancelled || !canvas.current) return;
      const natural = p.getViewport({ scale: 1 });
      const width = boxWidth;
      const scale = (width / natural.width) * ZOOMS[zoom]!;
      const ratio = window.devicePixelRatio || 1;
      const viewport = p.getViewport({ scale: scale * ratio });
      const c = canvas.current;
      c.width = Math.floor(viewport.width);
      c.height = Math.floor(viewport.height);
      c.style.width = `${Math.floor(viewport.width / ratio)}px`;
      c.style.height = `${Math.floor(viewport.height / ratio)}px`;
      render = p.render({ canvas: c, viewport });
      await render.promise.catch(() => {});
      if (cancelled) return;
      c.dataset.renderedPage = String(page);
      // The page's text over the drawing (transparent): selectable, found by the browser, the word searched marked.
      const layerBox = textLayer.current;
      if (!layerBox) return;
      layerBox.replaceChildren();
      layerBox.style.setProperty('--total-scale-factor', String(scale));
      const pdfjs = await import('pdfjs-dist');
      if (cancelled) return;
      layer = new pdfjs.TextLayer({
        textContentSource: p.streamTextContent(),
        container: layerBox,
        viewport: p.getViewport({ scale }),
      });
      const drawn = layer;
      await drawn.render().catch(() => {});
      if (cancelled || !marked) return;
      for (const span of drawn.textDivs) {
        if (!span.textContent?.toLocaleLowerCase().includes(marked)) continue;
        span.style.backgroundColor = FOUND_BACKGROUND;
        span.dataset.found = '';
      }
      layerBox.querySelector('[data-found]')?.scrollIntoView({ block: 'center' });
    })();
    return () => {
      cancelled = true;
      render?.cancel();
      layer?.cancel();
    };
  }, [doc, page, zoom, boxWidth, marked]);

  const findWord = async (word: string) => {
    if (!doc || !word) return;
    setFound(t('viewer.searching'));
    for (let i = 0; i < doc.numPages; i++) {
      const n = ((page - 1 + i) % doc.numPages) + 1;
      const content = await (await doc.getPage(n)).getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
      if (text.toLocaleLowerCase().includes(word)) {
        setPage(n);
        setMarked(word);
        return setFound(t('viewer.found', { page: n }));
      }
    }
    setMarked('');
    setFound(t('viewer.notFound'));
  };
  const search = (e: FormEvent) => {
    e.preventDefault();
    void findWord(query.trim().toLocaleLowerCase());
  };
  // Opened from a search: the word found as soon as the document is read.
  const opening = useRef(find);
  useEffect(() => {
    if (!doc || !opening.current) return;
    const word = opening.current.trim().toLocaleLowerCase();
    opening.current = undefined;
    void findWord(word);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the document is first read
  }, [doc]);

  const print = () => {
    const frame = document.createElement('iframe');
    frame.style.display = 'none';
    frame.src = url;
    frame.onload = () => frame.contentWindow?.print();
    document.body.append(frame);
    setTimeout(() => frame.remove(), 60_000);
  };

  if (failed) {
    return (
      <Stack gap="sm">
        <Alert color="gray" role="status">
          {t('viewer.failed')}
        </Alert>
        {download}
      </Stack>
    );
  }
  const pages = doc?.numPages ?? 0;
  return (
    <Stack gap="sm">
      <Group gap="xs" wrap="wrap" role="toolbar" aria-label={t('viewer.dialog')}>
        <Button variant="default" size="xs" onClick={() => setPage((p) => p - 1)} disabled={!doc || page <= 1}>
          {t('viewer.previousPage')}
        </Button>
        <NumberInput
          aria-label={t('viewer.pageNumber')}
          value={page}
          min={1}
          max={Math.max(pages, 1)}
          size="xs"
          w={70}
          onChange={(v) => typeof v === 'number' && v >= 1 && v <= pages && setPage(v)}
        />
        <Text size="sm" aria-live="polite">
          {doc ? t('viewer.pageOf', { page, pages }) : t('viewer.loading')}
        </Text>
        <Button variant="default" size="xs" onClick={() => setPage((p) => p + 1)} disabled={!doc || page >= pages}>
          {t('viewer.nextPage')}
        </Button>
        <Button
          variant="default"
          size="xs"
          onClick={() => setZoom((z) => z - 1)}
          disabled={zoom <= 0}
          aria-label={t('viewer.zoomOut')}
        >
          −
        </Button>
        <Text size="sm">{t('viewer.zoomLevel', { percent: Math.round(ZOOMS[zoom]! * 100) })}</Text>
        <Button
          variant="default"
          size="xs"
          onClick={() => setZoom((z) => z + 1)}
          disabled={zoom >= ZOOMS.length - 1}
          aria-label={t('viewer.zoomIn')}
        >
          +
        </Button>
        <Button variant="default" size="xs" onClick={print} disabled={!doc}>
          {t('viewer.print')}
        </Button>
        {download}
      </Group>
      <form onSubmit={search}>
        <Group gap="xs" align="end" wrap="wrap">
          <TextInput
            label={t('viewer.search')}
            size="xs"
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
          />
          <Button type="submit" size="xs" disabled={!doc}>
            {t('viewer.find')}
          </Button>
          <Text size="sm" role="status">
            {found}
          </Text>
        </Group>
      </form>
      <div
        ref={box}
        style={{ overflow: 'auto', maxHeight: '70vh', background: 'var(--mantine-color-gray-1)' }}
        tabIndex={0}
        role="region"
        aria-label={t('viewer.pages', { name })}
      >
        {!doc && <Loader size="sm" m="md" />}
        <div
          style={{
            position: 'relative',
            width: 'fit-content',
            margin: '0 auto',
            display: doc ? 'block' : 'none',
            ['--scale-round-x' as string]: '1px',
            ['--scale-round-y' as string]: '1px',
          }}
        >
          <canvas
            ref={canvas}
            role="img"
            aria-label={t('viewer.pageImage', { page, name })}
            style={{ display: 'block' }}
          />
          <div ref={textLayer} className="textLayer" data-testid="text-layer" />
        </div>
      </div>
    </Stack>
  );
}
