import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type {
  CloseLetterInput,
  DelegationInput,
  DelegationJson,
  DelegationsJson,
  InboxPageJson,
  LetterHistoryJson,
  LetterJson,
  LetterPageJson,
  MarkLetterInput,
  MovementJson,
  OfficerJson,
  PendencyJson,
  ReturnLetterInput,
  UpdateLetterInput,
} from '#shared/schemas/letter.ts';

import { api } from '#web/lib/api-client.ts';

import { dakKeys, type InboxFilter, letterKeys, type PendencyFilter } from './keys.ts';

export { dakKeys, letterKeys, useInboxCount, type InboxFilter, type PendencyFilter } from './keys.ts';

/**
 * GET /api/dac/page: the letters the signed-in person may see that match `q`, newest upload first, a page at a time
 * (the server searches; the cursor says where the next page starts). `mine` keeps the person's own letters.
 */
export const useLetterPages = (q: string, mine = false) =>
  useInfiniteQuery({
    queryKey: letterKeys.pages(q, mine),
    queryFn: ({ pageParam, signal }) =>
      api.get<LetterPageJson>('/api/dac/page', {
        params: { q: q || undefined, mine: mine || undefined, cursor: pageParam, limit: DEFAULT_PAGE_SIZE },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** GET /api/dac/{id}/history: who changed what on a letter, oldest first. */
export const useLetterHistory = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: letterKeys.history(id),
    queryFn: ({ signal }) => api.get<LetterHistoryJson[]>(`/api/dac/${id}/history`, { signal }),
    enabled,
  });

/** GET /api/dac/recycle-bin (admins): letters moved to the recycle bin, most recently deleted first. */
export const useRecycleBin = (enabled: boolean) =>
  useInfiniteQuery({
    queryKey: letterKeys.recycleBin,
    queryFn: ({ pageParam, signal }) =>
      api.get<LetterJson[]>('/api/dac/recycle-bin', {
        params: { limit: DEFAULT_PAGE_SIZE, offset: pageParam },
        signal,
      }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length < DEFAULT_PAGE_SIZE ? undefined : pages.length * DEFAULT_PAGE_SIZE),
    enabled,
  });

/** The CSV of every letter matching the search (GET /api/dac/export; a link, authorised by the sign-in cookie). */
export const exportHref = (q: string) => (q ? `/api/dac/export?q=${encodeURIComponent(q)}` : '/api/dac/export');

function useInvalidateLetters() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: letterKeys.all });
}

interface UploadVariables {
  form: FormData;
  onProgress?: (percent: number) => void;
}

/** POST /api/dac: the nine fields, the classification and the file (multipart), with upload progress. */
export function useUploadLetter() {
  const invalidate = useInvalidateLetters();
  return useMutation({
    mutationFn: ({ form, onProgress }: UploadVariables) => api.upload<LetterJson>('/api/dac', form, { onProgress }),
    onSuccess: invalidate,
  });
}

/**
 * PUT /api/dac/{id} (JSON, the nine fields and the classification), then, when a new file was chosen,
 * PUT /api/dac/{id}/file with upload progress.
 */
export function useUpdateLetter() {
  const invalidate = useInvalidateLetters();
  return useMutation({
    mutationFn: async ({
      id,
      input,
      file,
      onProgress,
    }: {
      id: string;
      input: UpdateLetterInput;
      file: File | null;
      onProgress?: (percent: number) => void;
    }) => {
      const letter = await api.put<LetterJson>(`/api/dac/${id}`, input);
      if (!file) return letter;
      const form = new FormData();
      form.set('file', file);
      return api.upload<LetterJson>(`/api/dac/${id}/file`, form, { method: 'PUT', onProgress });
    },
    onSettled: invalidate,
  });
}

/** DELETE /api/dac/{id}: to the recycle bin (the uploader or an admin). */
export function useDeleteLetter() {
  const invalidate = useInvalidateLetters();
  return useMutation({
    mutationFn: (id: string) => api.del<{ message: string }>(`/api/dac/${id}`),
    onSuccess: invalidate,
  });
}

/** POST /api/dac/{id}/restore (admins): back from the recycle bin. */
export function useRestoreLetter() {
  const invalidate = useInvalidateLetters();
  return useMutation({
    mutationFn: (id: string) => api.post<LetterJson>(`/api/dac/${id}/restore`),
    onSuccess: invalidate,
  });
}

/** DELETE /api/dac/{id}/purge (admins): deletes a binned letter and its file for good. */
export function usePurgeLetter() {
  const invalidate = useInvalidateLetters();
  return useMutation({
    mutationFn: (id: string) => api.del<{ message: string }>(`/api/dac/${id}/purge`),
    onSuccess: invalidate,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Dak movement (decision 020): marking, the inbox "Marked to me", receipt, closing, sending back, pendency.

/** GET /api/dac/inbox: the letters marked to me in one box, newest marking first, a page at a time. */
export const useInbox = (filter: InboxFilter) =>
  useInfiniteQuery({
    queryKey: dakKeys.inbox(filter),
    queryFn: ({ pageParam, signal }) =>
      api.get<InboxPageJson>('/api/dac/inbox', {
        params: {
          status: filter.status,
          q: filter.q || undefined,
          priority: filter.priority || undefined,
          overdue: filter.overdue || undefined,
          cursor: pageParam,
          limit: DEFAULT_PAGE_SIZE,
        },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });

/** GET /api/dac/{id}/movements: who had the letter, from when to when, with remarks. */
export const useLetterMovements = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: dakKeys.movements(id),
    queryFn: ({ signal }) => api.get<MovementJson[]>(`/api/dac/${id}/movements`, { signal }),
    enabled,
  });

/** GET /api/dac/officers: whom a letter may be marked to. */
export const useOfficers = (enabled: boolean) =>
  useQuery({
    queryKey: dakKeys.officers,
    queryFn: ({ signal }) => api.get<OfficerJson[]>('/api/dac/officers', { signal }),
    enabled,
    staleTime: 60_000,
  });

const pendencyParams = (f: PendencyFilter) => ({
  from: f.from || undefined,
  to: f.to || undefined,
  groupId: f.groupId || undefined,
});

/** GET /api/dac/pendency: per officer and per group, pending, overdue and closed in the period. */
export const usePendency = (filter: PendencyFilter) =>
  useQuery({
    queryKey: dakKeys.pendency(filter),
    queryFn: ({ signal }) => api.get<PendencyJson>('/api/dac/pendency', { params: pendencyParams(filter), signal }),
  });

/** The pendency report as CSV (a link, authorised by the sign-in cookie). */
export function pendencyExportHref(filter: PendencyFilter): string {
  const params = new URLSearchParams(
    Object.entries(pendencyParams(filter)).filter((e): e is [string, string] => Boolean(e[1])),
  );
  const query = params.toString();
  return `/api/dac/pendency/export${query ? `?${query}` : ''}`;
}

/** Every dak action refreshes the letters, the inbox, its badge and the bell. */
function useDakAction<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    // Not awaited: the caller's own onSuccess (a toast) runs first, before the refreshed list unmounts its card.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: letterKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['notifications'] });
    },
  });
}

/** POST /api/dac/{id}/movements. */
export const useMarkLetter = () =>
  useDakAction(({ id, input }: { id: string; input: MarkLetterInput }) =>
    api.post<MovementJson[]>(`/api/dac/${id}/movements`, input),
  );
/** POST /api/dac/{id}/receive. */
export const useReceiveLetter = () => useDakAction((id: string) => api.post<MovementJson>(`/api/dac/${id}/receive`));
/** POST /api/dac/{id}/close. */
export const useCloseLetter = () =>
  useDakAction(({ id, input }: { id: string; input: CloseLetterInput }) =>
    api.post<MovementJson>(`/api/dac/${id}/close`, input),
  );
/** POST /api/dac/{id}/return. */
export const useReturnLetter = () =>
  useDakAction(({ id, input }: { id: string; input: ReturnLetterInput }) =>
    api.post<MovementJson[]>(`/api/dac/${id}/return`, input),
  );
/** POST /api/dac/{id}/read: opened in the inbox. */
export const useReadLetter = () => useDakAction((id: string) => api.post<{ message: string }>(`/api/dac/${id}/read`));

// Pull back, copies for information, delegation of dak (decisions 078, 079).

/** POST /api/dac/{id}/movements/{movementId}/pull-back. */
export const usePullBack = () =>
  useDakAction(({ id, movementId }: { id: string; movementId: string }) =>
    api.post<MovementJson[]>(`/api/dac/${id}/movements/${movementId}/pull-back`),
  );
/** POST /api/dac/{id}/seen: a copy for information marked seen. */
export const useMarkSeen = () => useDakAction((id: string) => api.post<MovementJson[]>(`/api/dac/${id}/seen`));

/** GET /api/dac/delegations: the officer's delegations (an admin may name the officer) and those naming me. */
export const useDelegations = (officerId: string) =>
  useQuery({
    queryKey: dakKeys.delegations(officerId),
    queryFn: ({ signal }) =>
      api.get<DelegationsJson>('/api/dac/delegations', { params: { officerId: officerId || undefined }, signal }),
  });
/** POST /api/dac/delegations. */
export const useCreateDelegation = () =>
  useDakAction((input: DelegationInput) => api.post<DelegationJson>('/api/dac/delegations', input));
/** POST /api/dac/delegations/{id}/end. */
export const useEndDelegation = () =>
  useDakAction((id: string) => api.post<DelegationJson>(`/api/dac/delegations/${id}/end`));
