import type { OcrFailure, OcrStatus } from '#shared/constants.ts';

import { api } from '#web/lib/api-client.ts';

/** The file of a stored document (/uploads/{area}/{name}): what the viewer and the thumbnail are asked about. */
export const storedFile = (fileUrl: string) => {
  const m = /^\/uploads\/([a-z-]+)\/([0-9a-f-]{36})$/.exec(fileUrl);
  return m ? { area: m[1]!, name: m[2]! } : null;
};

/** What the viewer shows for a document (GET /api/previews/{area}/{name}, decision 084). */
export interface PreviewState {
  status: 'ready' | 'pending' | 'unavailable';
  pdfUrl: string | null;
  thumbnailUrl: string | null;
  /** A scan's recognised text (decision 113), or null for a file OCR does not read. */
  text: { status: OcrStatus; reason: OcrFailure | null } | null;
}

/**
 * The query of a document's preview state, refused as its download is: the step-up included (decision 095), so
 * asking it through the API client is what brings up "Confirm it is you" when the server wants one.
 */
export const previewQuery = (file: { area: string; name: string }) => ({
  queryKey: ['preview', file.area, file.name] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    api.get<PreviewState>(`/api/previews/${file.area}/${file.name}`, { signal }),
});

/**
 * The same state for a line on a card (whether a scan's text was recognised): never asks for the step-up, so a
 * classified document's card says nothing until its viewer is opened after the check.
 */
export const previewLineQuery = (file: { area: string; name: string }) => ({
  queryKey: ['preview', file.area, file.name] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    api.get<PreviewState>(`/api/previews/${file.area}/${file.name}`, { signal, askStepUp: false }),
  retry: false,
});
