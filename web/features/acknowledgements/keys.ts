// The acknowledgements' query keys and the navigation's "To acknowledge" count: the only parts of the feature the
// portal's shell needs on every page, apart from the rest of api.ts so that the first page stays small.
import { useQuery } from '@tanstack/react-query';

import type { AcknowledgementCountJson, AcknowledgementStatus } from '#shared/schemas/acknowledgements.ts';

import { api } from '#web/lib/api-client.ts';

/** Query keys of acknowledgements in one place; acknowledging one invalidates the person's lists and the badge. */
export const acknowledgementKeys = {
  all: ['acknowledgements'] as const,
  mine: ['acknowledgements', 'mine'] as const,
  count: ['acknowledgements', 'mine', 'count'] as const,
  list: (status: AcknowledgementStatus) => ['acknowledgements', 'mine', 'list', status] as const,
  requests: ['acknowledgements', 'requests'] as const,
  report: (id: string) => ['acknowledgements', 'requests', id] as const,
  pending: (id: string, group: string) => ['acknowledgements', 'requests', id, 'pending', { group }] as const,
};

/**
 * GET /api/acknowledgements/count: the badge of "To acknowledge", in the navigation and, on a phone, in the
 * header. Refreshed every minute, when the window comes back into view (TanStack Query's default), and at once after
 * an acknowledgement.
 */
export const useAcknowledgementCount = (enabled: boolean) =>
  useQuery({
    queryKey: acknowledgementKeys.count,
    queryFn: ({ signal }) => api.get<AcknowledgementCountJson>('/api/acknowledgements/count', { signal }),
    enabled,
    refetchInterval: 60_000,
  });
