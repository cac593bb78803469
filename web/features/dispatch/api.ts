import { keepPreviousData, useQuery } from '@tanstack/react-query';

import type { DispatchJson, DispatchModeName } from '#shared/schemas/dispatch.ts';

import { api } from '#web/lib/api-client.ts';

/** The register's filters (decision 120). */
export interface RegisterFilter {
  q: string;
  mode: DispatchModeName | '';
  year: string;
}

export const PAGE_SIZE = 20;

const params = (filter: RegisterFilter) => ({
  q: filter.q.trim() || undefined,
  mode: filter.mode || undefined,
  year: filter.year || undefined,
});

/** GET /api/dispatches/page: one page of the register, paged on the server, and the count. */
export const useDispatchRegister = (filter: RegisterFilter, page: number) =>
  useQuery({
    queryKey: ['dispatches', filter, page],
    queryFn: ({ signal }) =>
      api.get<{ items: DispatchJson[]; total: number }>('/api/dispatches/page', {
        params: { ...params(filter), limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** The CSV of the register's matches (a download, signed in by the GET cookie). */
export const registerCsvUrl = (filter: RegisterFilter) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params(filter))) if (value) search.set(key, String(value));
  const text = search.toString();
  return `/api/dispatches/export.csv${text ? `?${text}` : ''}`;
};
