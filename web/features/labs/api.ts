import { useQuery } from '@tanstack/react-query';
import type { LabDocumentsJson } from '#shared/schemas/lab.ts';
import { ApiError, api } from '#web/lib/api-client.ts';

/** Query keys of lab data in one place; a mutation invalidates the key it changed. */
export const labKeys = {
  all: ['labs'] as const,
  only: ['labs', 'only'] as const,
  documents: (labId: string, current: boolean) => ['labs', labId, 'documents', { current }] as const,
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
export const useLabDocuments = (labId: string | undefined, { current = false } = {}) =>
  useQuery({
    queryKey: labKeys.documents(labId ?? '', current),
    queryFn: ({ signal }) =>
      api.get<LabDocumentsJson>(`/api/labs/${labId}/documents`, { params: current ? { current: 'true' } : undefined, signal }),
    enabled: Boolean(labId),
  });
