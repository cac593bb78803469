import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import type { TrustedRootInput, TrustedRootJson } from '#shared/schemas/signature.ts';

import { api } from '#web/lib/api-client.ts';

const rootsKey = ['signatures', 'roots'] as const;

/** GET /admin/trusted-roots (decision 123). */
export const useTrustedRoots = () =>
  useQuery({
    queryKey: rootsKey,
    queryFn: ({ signal }) => api.get<TrustedRootJson[]>('/admin/trusted-roots', { signal }),
  });

/** Adding or removing a root makes every check stale: the roots and every kept check are fetched again. */
export function useAddRoot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TrustedRootInput) => api.post<TrustedRootJson>('/admin/trusted-roots', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['signatures'] }),
  });
}

export function useRemoveRoot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del<{ message: string }>(`/admin/trusted-roots/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['signatures'] }),
  });
}
