import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import type {
  AnswerFeedbackInput,
  ArchiveJson,
  FeedbackInput,
  FeedbackJson,
  FeedbackPageJson,
  FeedbackStatus,
  SitePageJson,
  SitePageKey,
  UpdateSitePageInput,
} from '#shared/schemas/site.ts';

import { api } from '#web/lib/api-client.ts';

/** Query keys of the site pages in one place; a save invalidates what it changed. */
export const siteKeys = {
  page: (key: SitePageKey) => ['site', 'page', key] as const,
  feedback: ['site', 'feedback'] as const,
  feedbackList: (status: FeedbackStatus | null, offset: number) =>
    ['site', 'feedback', 'list', status, offset] as const,
  myFeedback: ['site', 'feedback', 'mine'] as const,
  archive: (signedIn: boolean) => ['site', 'archive', signedIn] as const,
};

/** Terms of use or Privacy policy (public): the admin's text, else the default. */
export const useSitePage = (key: SitePageKey) =>
  useQuery({
    queryKey: siteKeys.page(key),
    queryFn: ({ signal }) => api.get<SitePageJson>(`/api/site/pages/${key}`, { signal }),
  });

/** An admin saves a page in both languages. */
export function useSaveSitePage(key: SitePageKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateSitePageInput) => api.put<SitePageJson>(`/api/site/pages/${key}`, input),
    onSuccess: (page) => queryClient.setQueryData(siteKeys.page(key), page),
  });
}

/** Sends the Feedback form (anyone; limited per address by the server). */
export function useSendFeedback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FeedbackInput) => api.post<{ message: string }>('/api/feedback', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: siteKeys.feedback }),
  });
}

/** The feedback the signed-in person sent, with replies. */
export const useMyFeedback = (enabled: boolean) =>
  useQuery({
    queryKey: siteKeys.myFeedback,
    queryFn: ({ signal }) => api.get<FeedbackJson[]>('/api/feedback/mine', { signal }),
    enabled,
  });

/** A page of feedback for the admin panel, newest first, optionally of one status. */
export const useFeedbackList = (status: FeedbackStatus | null, offset: number, limit: number) =>
  useQuery({
    queryKey: siteKeys.feedbackList(status, offset),
    queryFn: ({ signal }) => api.get<FeedbackPageJson>('/api/feedback', { params: { status, offset, limit }, signal }),
    placeholderData: keepPreviousData,
  });

/** An admin answers or marks feedback. */
export function useAnswerFeedback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: AnswerFeedbackInput & { id: string }) =>
      api.put<FeedbackJson>(`/api/feedback/${id}`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: siteKeys.feedback }),
  });
}

/** Expired notices and circulars by year: the lab's for everyone, a group's for those who may see it. */
export const useArchive = (signedIn: boolean) =>
  useQuery({
    queryKey: siteKeys.archive(signedIn),
    queryFn: ({ signal }) => api.get<ArchiveJson>('/api/notices/archive', { signal }),
  });
