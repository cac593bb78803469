import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import type {
  CreateLabInput,
  LabDocumentsJson,
  LabItemJson,
  LabItemKind,
  LabJson,
  LabSummaryJson,
  UpdateLabInput,
} from '#shared/schemas/lab.ts';
import type { DirectorEntryJson } from '#shared/schemas/unit.ts';

import { api, ApiError } from '#web/lib/api-client.ts';

/** Query keys of lab data in one place; a mutation invalidates the key it changed. */
export const labKeys = {
  all: ['labs'] as const,
  only: ['labs', 'only'] as const,
  list: ['labs', 'list'] as const,
  one: (labId: string) => ['labs', labId, 'record'] as const,
  documents: (labId: string, current: boolean, limit?: number) =>
    ['labs', labId, 'documents', { current, limit }] as const,
};

export interface OnlyLabJson {
  _id: string;
  name: string;
}

/**
 * The single lab (GET /api/labs/only). Answers null while no lab exists (the API's 404), which is what the admin's
 * "Add Lab" menu entry waits for (spec §6).
 */
export const useOnlyLab = () =>
  useQuery({
    queryKey: labKeys.only,
    queryFn: async ({ signal }) => {
      try {
        return await api.get<OnlyLabJson>('/api/labs/only', { signal });
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    staleTime: 5 * 60_000,
  });

/** A lab's notices and circulars (GET /api/labs/{id}/documents); `current` keeps only those still valid. */
export const useLabDocuments = (
  labId: string | undefined,
  { current = false, limit }: { current?: boolean; limit?: number } = {},
) =>
  useQuery({
    queryKey: labKeys.documents(labId ?? '', current, limit),
    queryFn: ({ signal }) =>
      api.get<LabDocumentsJson>(`/api/labs/${labId}/documents`, {
        params: { current: current ? 'true' : undefined, limit },
        signal,
      }),
    enabled: Boolean(labId),
  });

/** One list for the News Flash and the latest box: notices and circulars together, newest first. */
export function newestDocuments(documents: LabDocumentsJson | undefined) {
  const items = [
    ...(documents?.notices ?? []).map((n) => ({ ...n, kind: 'notice' as const })),
    ...(documents?.circulars ?? []).map((c) => ({ ...c, kind: 'circular' as const })),
  ];
  return items.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** The whole lab record (GET /api/labs/{id}): the home tabs and the admin panel. Public. */
export const useLab = (labId: string | undefined) =>
  useQuery({
    queryKey: labKeys.one(labId ?? ''),
    queryFn: ({ signal }) => api.get<LabJson>(`/api/labs/${labId}`, { signal }),
    enabled: Boolean(labId),
  });

/** GET /api/labs: the list of labs (there is at most one). */
export const useLabs = () =>
  useQuery({ queryKey: labKeys.list, queryFn: ({ signal }) => api.get<LabSummaryJson[]>('/api/labs', { signal }) });

/** Every lab query (record, documents, News Flash, the Add Lab entry) is stale after a write. */
function useInvalidateLabs() {
  const queryClient = useQueryClient();
  // Not awaited: the caller's onSuccess (its toast) runs at once, before the refetch may remount the form.
  return () => void queryClient.invalidateQueries({ queryKey: labKeys.all });
}

/** POST /api/labs (admin): Add New Lab Information. */
export function useCreateLab() {
  const invalidate = useInvalidateLabs();
  return useMutation({
    mutationFn: (input: CreateLabInput) => api.post<LabSummaryJson>('/api/labs', input),
    onSuccess: invalidate,
  });
}

/** PUT /api/labs/{id} (admin): Update Lab Information, contact info and the director's office. */
export function useUpdateLab(labId: string) {
  const invalidate = useInvalidateLabs();
  return useMutation({
    mutationFn: (input: UpdateLabInput) => api.put<LabJson>(`/api/labs/${labId}`, input),
    onSuccess: invalidate,
  });
}

/** Creates (no id) or edits an item of a list: multipart name, description, file[, validUntil]. */
export function useSaveLabItem(labId: string, kind: LabItemKind) {
  const invalidate = useInvalidateLabs();
  return useMutation({
    mutationFn: ({ itemId, form, onProgress }: { itemId?: string; form: FormData; onProgress?: (p: number) => void }) =>
      api.upload<LabItemJson>(itemId ? `/api/labs/${labId}/${kind}/${itemId}` : `/api/labs/${labId}/${kind}`, form, {
        method: itemId ? 'PUT' : 'POST',
        onProgress,
      }),
    onSuccess: invalidate,
  });
}

/** DELETE /api/labs/{id}/{kind}/{itemId} (admin). */
export function useDeleteLabItem(labId: string, kind: LabItemKind) {
  const invalidate = useInvalidateLabs();
  return useMutation({
    mutationFn: (itemId: string) => api.del<{ message: string }>(`/api/labs/${labId}/${kind}/${itemId}`),
    onSuccess: invalidate,
  });
}

/** Creates (no id) or edits a director history entry: multipart user or name, designation, from, to, about, image. */
export function useSaveDirector(labId: string) {
  const invalidate = useInvalidateLabs();
  return useMutation({
    mutationFn: ({ entryId, form }: { entryId?: string; form: FormData }) =>
      api.upload<DirectorEntryJson>(
        entryId ? `/api/labs/${labId}/directors/${entryId}` : `/api/labs/${labId}/directors`,
        form,
        {
          method: entryId ? 'PUT' : 'POST',
        },
      ),
    onSuccess: invalidate,
  });
}

/** DELETE /api/labs/{id}/directors/{directorId} (admin). */
export function useDeleteDirector(labId: string) {
  const invalidate = useInvalidateLabs();
  return useMutation({
    mutationFn: (entryId: string) => api.del<{ message: string }>(`/api/labs/${labId}/directors/${entryId}`),
    onSuccess: invalidate,
  });
}
