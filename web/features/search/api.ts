import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';

// The constants from zod-free shared/search.ts: this module is in the first page's shell (the header's search), and
// shared/schemas/search.ts would bring zod into it (decision 024's budget).
import type { SearchAnswerJson, SearchKind } from '#shared/schemas/search.ts';
import { SEARCH_MIN_LENGTH, SEARCH_PAGE_SIZE } from '#shared/search.ts';

import { api } from '#web/lib/api-client.ts';

/** Query keys of the portal search. */
export const searchKeys = {
  pages: (q: string, kinds: SearchKind[]) => ['search', 'pages', { q, kinds }] as const,
};

/** A query the server accepts: at least SEARCH_MIN_LENGTH characters once trimmed. */
export const isSearchable = (q: string) => q.trim().length >= SEARCH_MIN_LENGTH;

const fetchSearch = (q: string, kinds: SearchKind[], limit: number, cursor: string | undefined, signal: AbortSignal) =>
  api.get<SearchAnswerJson>('/api/search', {
    params: { q: q.trim(), kinds: kinds.length ? kinds.join(',') : undefined, limit, cursor },
    signal,
  });

/** GET /api/search: the results page, a page at a time (the cursor says where the next starts). */
export const useSearchPages = (q: string, kinds: SearchKind[]) =>
  useInfiniteQuery({
    queryKey: searchKeys.pages(q.trim(), kinds),
    queryFn: ({ pageParam, signal }) => fetchSearch(q, kinds, SEARCH_PAGE_SIZE, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: isSearchable(q),
    placeholderData: keepPreviousData,
  });
