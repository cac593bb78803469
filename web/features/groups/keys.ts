// Group query keys and the navigation's Groups menu: the only parts of the groups feature the portal's shell needs on
// every page, apart from the rest of api.ts so that the first page stays small.
import { useQuery } from '@tanstack/react-query';

import type { GroupMenuItemJson } from '#shared/schemas/group.ts';

import { api } from '#web/lib/api-client.ts';

/** Query keys of group data in one place; a mutation invalidates the key it changed. */
export const groupKeys = {
  all: ['groups'] as const,
  names: ['groups', 'names'] as const,
  menu: ['groups', 'menu'] as const,
  one: (id: string) => ['groups', id] as const,
  page: (id: string) => ['groups', id, 'page'] as const,
  edit: (id: string) => ['groups', id, 'edit'] as const,
  myGroup: ['groups', 'my-group'] as const,
  staff: (q: string, limit: number) => ['groups', 'staff', { q, limit }] as const,
  achievements: (limit: number) => ['groups', 'achievements', { limit }] as const,
  files: (id: string, field: string) => ['groups', id, 'files', field] as const,
};

/**
 * The Groups menu (GET /api/groups/menu): every group with the person's own marked and those they may not open
 * flagged.
 */
export const useGroupMenu = ({ enabled = true } = {}) =>
  useQuery({
    queryKey: groupKeys.menu,
    queryFn: ({ signal }) => api.get<GroupMenuItemJson[]>('/api/groups/menu', { signal }),
    enabled,
  });
