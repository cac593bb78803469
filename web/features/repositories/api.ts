import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type { GroupNameJson } from '#shared/schemas/group.ts';
import type { SoftwareRepoJson, TrialRepoJson } from '#shared/schemas/repository.ts';

import { api } from '#web/lib/api-client.ts';

/** Query keys of the repositories in one place; an upload or delete invalidates the list it changed. */
export const repositoryKeys = {
  software: ['repositories', 'software'] as const,
  trial: ['repositories', 'trial'] as const,
  uploadGroups: ['repositories', 'upload-groups'] as const,
};

/** The groups the signed-in person may upload repositories to (an associate director: their own, and any they lead). */
export const useUploadGroups = ({ enabled = true } = {}) =>
  useQuery({
    queryKey: repositoryKeys.uploadGroups,
    queryFn: ({ signal }) => api.get<GroupNameJson[]>('/api/repositories/upload-groups', { signal }),
    enabled,
  });

/**
 * A repository list in server pages (?limit&offset), already sorted by group name by the server (spec §2). A page
 * shorter than asked for is the last one.
 */
function useRepositoryPages<T>(key: readonly string[], url: string) {
  return useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam, signal }) =>
      api.get<T[]>(url, { params: { limit: DEFAULT_PAGE_SIZE, offset: pageParam }, signal }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length < DEFAULT_PAGE_SIZE ? undefined : pages.length * DEFAULT_PAGE_SIZE),
  });
}

/** GET /api/softwareRepo: what the signed-in person may see (all for directors and admins, else their group's). */
export const useSoftwareRepos = () =>
  useRepositoryPages<SoftwareRepoJson>(repositoryKeys.software, '/api/softwareRepo');

/** GET /api/trialRepo/ (spec §7 writes it with the slash): as useSoftwareRepos. */
export const useTrialRepos = () => useRepositoryPages<TrialRepoJson>(repositoryKeys.trial, '/api/trialRepo/');

interface UploadVariables {
  form: FormData;
  onProgress?: (percent: number) => void;
}

function useUpload<T>(url: string, key: readonly string[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ form, onProgress }: UploadVariables) => api.upload<T>(url, form, { onProgress }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** POST /api/softwareRepo (associate directors and admins), with upload progress for the progress bar. */
export const useUploadSoftwareRepo = () => useUpload<SoftwareRepoJson>('/api/softwareRepo', repositoryKeys.software);

/** POST /api/trialRepo (associate directors and admins), with upload progress for the progress bar. */
export const useUploadTrialRepo = () => useUpload<TrialRepoJson>('/api/trialRepo', repositoryKeys.trial);

function useDelete(base: string, key: readonly string[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del<{ message: string }>(`${base}/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** DELETE /api/softwareRepo/{id}: the uploader or an admin. */
export const useDeleteSoftwareRepo = () => useDelete('/api/softwareRepo', repositoryKeys.software);

/** DELETE /api/trialRepo/{id}: the uploader or an admin. */
export const useDeleteTrialRepo = () => useDelete('/api/trialRepo', repositoryKeys.trial);
