import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type {
  AcknowledgeJson,
  AcknowledgementReportJson,
  AcknowledgementRequestJson,
  AcknowledgementStatus,
  MyAcknowledgementJson,
  PendingAcknowledgementJson,
} from '#shared/schemas/acknowledgements.ts';

import { api } from '#web/lib/api-client.ts';

import { acknowledgementKeys } from './keys.ts';

export { acknowledgementKeys, useAcknowledgementCount } from './keys.ts';

/**
 * A list the server answers a page at a time (?limit&offset, X-Total-Count): the pages so far, "Load more" for the
 * next, as the other lists of the portal page (a page shorter than the limit is the last).
 */
function usePagedList<T>(key: readonly unknown[], url: string, params: Record<string, string | undefined> = {}) {
  return useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam, signal }) =>
      api.get<T[]>(url, { params: { ...params, limit: DEFAULT_PAGE_SIZE, offset: pageParam }, signal }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length < DEFAULT_PAGE_SIZE ? undefined : pages.length * DEFAULT_PAGE_SIZE),
  });
}

/** GET /api/acknowledgements?status: the person's own rows, pending (overdue first) or acknowledged (newest first). */
export const useMyAcknowledgements = (status: AcknowledgementStatus) =>
  usePagedList<MyAcknowledgementJson>(acknowledgementKeys.list(status), '/api/acknowledgements', { status });

/** The person's lists and badge after a change of theirs. */
function useInvalidateMine() {
  const queryClient = useQueryClient();
  // Not awaited: the caller's own onSuccess (its toast, the dialog closing) runs first.
  return () => void queryClient.invalidateQueries({ queryKey: acknowledgementKeys.mine });
}

/**
 * POST /api/acknowledgements/{id}/open, as the document opens in its new tab: the server notes that it was opened,
 * which Acknowledge then needs. The reports' counts change too (opened is shown beside a pending person).
 */
export function useOpenAcknowledgement() {
  const invalidate = useInvalidateMine();
  return useMutation({
    mutationFn: (id: string) => api.post<void>(`/api/acknowledgements/${id}/open`),
    onSuccess: invalidate,
  });
}

/** POST /api/acknowledgements/{id}/acknowledge: the lists, the badge and the reports are stale after it. */
export function useAcknowledge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<AcknowledgeJson>(`/api/acknowledgements/${id}/acknowledge`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: acknowledgementKeys.all }),
  });
}

/** GET /api/acknowledgement-requests: the requests this person may report on, newest first. */
export const useAcknowledgementRequests = () =>
  usePagedList<AcknowledgementRequestJson>(acknowledgementKeys.requests, '/api/acknowledgement-requests');

/** GET /api/acknowledgement-requests/{id}: per-group counts and totals (a group head: their group's part). */
export const useAcknowledgementReport = (id: string) =>
  useQuery({
    queryKey: acknowledgementKeys.report(id),
    queryFn: ({ signal }) =>
      api.get<AcknowledgementReportJson>(`/api/acknowledgement-requests/${encodeURIComponent(id)}`, { signal }),
    enabled: Boolean(id),
    retry: (count, err) => count < 2 && !isClientError(err),
  });

/** GET /api/acknowledgement-requests/{id}/pending?group: who has not acknowledged, overdue first, a page at a time. */
export function usePendingAcknowledgements(id: string, group: string) {
  return usePagedList<PendingAcknowledgementJson>(
    acknowledgementKeys.pending(id, group),
    `/api/acknowledgement-requests/${encodeURIComponent(id)}/pending`,
    { group: group || undefined },
  );
}

/** The CSV of a request (the part this reader may see), downloaded by the browser with the session's cookie. */
export const acknowledgementExportHref = (id: string) =>
  `/api/acknowledgement-requests/${encodeURIComponent(id)}/export.csv`;

function isClientError(err: unknown): boolean {
  const status = (err as { status?: number } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
