import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';

import { GALLERY_PAGE_SIZE } from '#shared/constants.ts';
import type { PhotoJson, UpdatePhotoInput } from '#shared/schemas/gallery.ts';

import { api } from '#web/lib/api-client.ts';

/** Query keys of the gallery; a mutation invalidates every page of the lab's photos. */
export const galleryKeys = {
  all: ['gallery'] as const,
  photos: (labId: string, pageSize: number) => ['gallery', labId, 'photos', pageSize] as const,
};

/**
 * The lab's photos in pages fetched with ?skip&limit (spec §7, §9: 3 at a time on the home carousel). A page shorter
 * than asked for is the last one. The manager reads the array or an object with photos (spec §7).
 */
export const usePhotoPages = (labId: string | undefined, pageSize = GALLERY_PAGE_SIZE) =>
  useInfiniteQuery({
    queryKey: galleryKeys.photos(labId ?? '', pageSize),
    queryFn: async ({ pageParam, signal }) => {
      const answer = await api.get<PhotoJson[] | { photos: PhotoJson[] }>(`/api/labs/${labId}/photos`, {
        params: { skip: pageParam, limit: pageSize },
        signal,
      });
      return Array.isArray(answer) ? answer : answer.photos;
    },
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length < pageSize ? undefined : pages.length * pageSize),
    enabled: Boolean(labId),
  });

function useInvalidatePhotos() {
  const queryClient = useQueryClient();
  // Not awaited: the caller's onSuccess (its toast) runs at once, before the refetch may remount the card.
  return () => void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
}

/** POST /api/labs/{labId}/upload-photo (admin): multipart photo, name, description, with upload progress. */
export function useUploadPhoto(labId: string) {
  const invalidate = useInvalidatePhotos();
  return useMutation({
    mutationFn: ({ form, onProgress }: { form: FormData; onProgress?: (percent: number) => void }) =>
      api.upload<PhotoJson>(`/api/labs/${labId}/upload-photo`, form, { onProgress }),
    onSuccess: invalidate,
  });
}

/** PUT /api/labs/{labId}/photos/{photoId} (admin): JSON name, description. */
export function useUpdatePhoto(labId: string) {
  const invalidate = useInvalidatePhotos();
  return useMutation({
    mutationFn: ({ photoId, input }: { photoId: string; input: UpdatePhotoInput }) =>
      api.put<PhotoJson>(`/api/labs/${labId}/photos/${photoId}`, input),
    onSuccess: invalidate,
  });
}

/** DELETE /api/labs/{labId}/photos/{photoId} (admin). */
export function useDeletePhoto(labId: string) {
  const invalidate = useInvalidatePhotos();
  return useMutation({
    mutationFn: (photoId: string) => api.del<{ message: string }>(`/api/labs/${labId}/photos/${photoId}`),
    onSuccess: invalidate,
  });
}
