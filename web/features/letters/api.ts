import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type { LetterHistoryJson, LetterJson, LetterPageJson, UpdateLetterInput } from '#shared/schemas/letter.ts';
import { api } from '#web/lib/api-client.ts';

/** Query keys of the letters register; a change invalidates every list of it. */
export const letterKeys = {
  all: ['letters'] as const,
  pages: (q: string, mine: boolean) => ['letters', 'pages', { q, mine }] as const,
  history: (id: string) => ['letters', 'history', id] as const,
  recycleBin: ['letters', 'recycle-bin'] as const,
};

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
