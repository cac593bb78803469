import { useQuery } from '@tanstack/react-query';
import type { GroupNameJson } from '#shared/schemas/group.ts';
import { api } from '#web/lib/api-client.ts';

/** Query keys of group data in one place; a mutation invalidates the key it changed. */
export const groupKeys = {
  all: ['groups'] as const,
  names: ['groups', 'names'] as const,
  one: (id: string) => ['groups', id] as const,
};

/** {_id, name} of every group (GET /api/groups/name): the Groups dropdown and group selects. Signed-in only. */
export const useGroupNames = ({ enabled = true } = {}) =>
  useQuery({
    queryKey: groupKeys.names,
    queryFn: ({ signal }) => api.get<GroupNameJson[]>('/api/groups/name', { signal }),
    enabled,
  });
