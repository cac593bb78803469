import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import type { AuditAction, AuditOutcome } from '#shared/audit.ts';
import type { AuditEventPageJson } from '#shared/schemas/audit.ts';
import type { AuditCheckpointWrittenJson } from '#shared/schemas/audit-checkpoint.ts';

import { api } from '#web/lib/api-client.ts';

/** The Audit Trail screen's filters as the form holds them: '' for none. */
export interface AuditFilter {
  person: string;
  object: string;
  action: AuditAction | '';
  classification: string;
  outcome: AuditOutcome | '';
  from: string;
  to: string;
}

export const emptyAuditFilter: AuditFilter = {
  person: '',
  object: '',
  action: '',
  classification: '',
  outcome: '',
  from: '',
  to: '',
};

export const auditKeys = {
  all: ['audit-trail'] as const,
  events: (filter: AuditFilter, page: { limit: number; offset: number }) =>
    ['audit-trail', 'events', filter, page] as const,
};

/** Leaves out blank filters, so the query string carries only what was chosen. */
const present = (filter: AuditFilter) =>
  Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== '')) as Record<string, string>;

/** GET /api/audit/events: a page of the events, newest first, filtered by the server (each read is itself recorded). */
export const useAuditEvents = (filter: AuditFilter, page: { limit: number; offset: number }) =>
  useQuery({
    queryKey: auditKeys.events(filter, page),
    queryFn: ({ signal }) =>
      api.get<AuditEventPageJson>('/api/audit/events', { params: { ...present(filter), ...page }, signal }),
    placeholderData: keepPreviousData,
  });

/** The CSV of every event matching the filters (GET /api/audit/events.csv; a link, authorised by the sign-in cookie). */
export const auditCsvHref = (filter: AuditFilter) => {
  const query = new URLSearchParams(present(filter)).toString();
  return query ? `/api/audit/events.csv?${query}` : '/api/audit/events.csv';
};

/**
 * POST /api/audit/checkpoints (decision 068): an admin writes a checkpoint now. The trail gains its event, so the
 * pages shown are asked again.
 */
export function useWriteCheckpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<AuditCheckpointWrittenJson>('/api/audit/checkpoints'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: auditKeys.all }),
  });
}
