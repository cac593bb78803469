import { QueryClient } from '@tanstack/react-query';

import { ApiError } from './api-client.ts';

/** Client errors (4xx) will not change on a retry; network and server failures get two more tries. */
const retry = (failureCount: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2;

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, retry, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
