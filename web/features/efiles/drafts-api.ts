import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import type { DraftDiffJson, DraftJson, PutUpInput } from '#shared/schemas/efile-draft.ts';
import type { NoteBody } from '#shared/schemas/efile-note.ts';

import { api } from '#web/lib/api-client.ts';

import { efileKeys } from './api.ts';

/** Drafts for approval (decision 122): their reads and writes; every write refreshes e-Files and the bell. */
type Message = { message: string };
type Created = { _id: string; ref: string; version: number };

export const draftKeys = {
  list: (id: string) => [...efileKeys.all, 'drafts', id] as const,
  diff: (id: string, draftId: string, version: number) => [...efileKeys.all, 'drafts', id, draftId, version] as const,
};

/** GET /api/efiles/{id}/drafts. */
export const useDrafts = (id: string) =>
  useQuery({
    queryKey: draftKeys.list(id),
    queryFn: ({ signal }) => api.get<DraftJson[]>(`/api/efiles/${id}/drafts`, { signal }),
    retry: false,
  });

/** GET …/versions/{n}/diff: version n against the one before. */
export const useDraftDiff = (id: string, draftId: string, version: number, enabled: boolean) =>
  useQuery({
    queryKey: draftKeys.diff(id, draftId, version),
    queryFn: ({ signal }) =>
      api.get<DraftDiffJson>(`/api/efiles/${id}/drafts/${draftId}/versions/${version}/diff`, { signal }),
    enabled,
    staleTime: Infinity,
  });

function useDraftWrite<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: efileKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['notifications'] });
    },
  });
}

const uploadForm = (file: File, title?: string) => {
  const form = new FormData();
  if (title !== undefined) form.set('title', title);
  form.set('document', file);
  return form;
};

export const useAddDraft = () =>
  useDraftWrite(({ id, title, body }: { id: string; title: string; body: NoteBody }) =>
    api.post<Created>(`/api/efiles/${id}/drafts`, { title, body }),
  );
export const useUploadDraft = () =>
  useDraftWrite(({ id, title, file }: { id: string; title: string; file: File }) =>
    api.upload<Created>(`/api/efiles/${id}/drafts/upload`, uploadForm(file, title)),
  );
export const useAddVersion = () =>
  useDraftWrite(({ id, draftId, body }: { id: string; draftId: string; body: NoteBody }) =>
    api.post<Created>(`/api/efiles/${id}/drafts/${draftId}/versions`, { body }),
  );
export const useUploadVersion = () =>
  useDraftWrite(({ id, draftId, file }: { id: string; draftId: string; file: File }) =>
    api.upload<Created>(`/api/efiles/${id}/drafts/${draftId}/versions/upload`, uploadForm(file)),
  );
export const usePutUp = () =>
  useDraftWrite(({ id, draftId, input }: { id: string; draftId: string; input: PutUpInput }) =>
    api.post<Message>(`/api/efiles/${id}/drafts/${draftId}/put-up`, input),
  );
export const useAskChanges = () =>
  useDraftWrite(({ id, draftId, note }: { id: string; draftId: string; note: string }) =>
    api.post<Message>(`/api/efiles/${id}/drafts/${draftId}/ask-changes`, { note }),
  );
export const useApprove = () =>
  useDraftWrite(({ id, draftId, personal }: { id: string; draftId: string; personal: boolean }) =>
    api.post<Message>(`/api/efiles/${id}/drafts/${draftId}/approve`, { personal }),
  );
