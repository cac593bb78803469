// The letters register's query keys and the navigation's inbox badge: the only parts of the letters feature the
// portal's shell needs on every page, apart from the rest of api.ts so that the first page stays small.
import { useQuery } from '@tanstack/react-query';

import type { DakPriority, InboxCountJson, InboxStatus } from '#shared/schemas/letter.ts';

import { api } from '#web/lib/api-client.ts';

/** Query keys of the letters register; a change invalidates every list of it. */
export const letterKeys = {
  all: ['letters'] as const,
  pages: (q: string, mine: boolean) => ['letters', 'pages', { q, mine }] as const,
  history: (id: string) => ['letters', 'history', id] as const,
  recycleBin: ['letters', 'recycle-bin'] as const,
};

export interface InboxFilter {
  status: InboxStatus;
  q: string;
  priority: DakPriority | '';
  overdue: boolean;
}

export interface PendencyFilter {
  from: string;
  to: string;
  groupId: string;
}

export const dakKeys = {
  all: ['letters', 'dak'] as const,
  inbox: (filter: InboxFilter) => ['letters', 'dak', 'inbox', filter] as const,
  count: ['letters', 'dak', 'count'] as const,
  movements: (id: string) => ['letters', 'dak', 'movements', id] as const,
  officers: ['letters', 'dak', 'officers'] as const,
  pendency: (query: PendencyFilter) => ['letters', 'dak', 'pendency', query] as const,
  delegations: (officerId: string) => ['letters', 'dak', 'delegations', officerId] as const,
};

/** GET /api/dac/inbox/count: the badge of "Marked to me" in the navigation, refreshed every minute. */
export const useInboxCount = (enabled: boolean) =>
  useQuery({
    queryKey: dakKeys.count,
    queryFn: ({ signal }) => api.get<InboxCountJson>('/api/dac/inbox/count', { signal }),
    enabled,
    refetchInterval: 60_000,
  });
