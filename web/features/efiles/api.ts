import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';

import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type {
  CreateEfileInput,
  EfileBox,
  efileHeadJson,
  EfileJson,
  EfileMovementJson,
  EfilePageJson,
  EfilePendencyJson,
  efileSettingsJson,
  EfileSummaryJson,
  letterInFileJson,
  noteVersionJson,
  SendEfileInput,
} from '#shared/schemas/efile.ts';
import type { NoteBody } from '#shared/schemas/efile-note.ts';
import type { OfficerJson } from '#shared/schemas/letter.ts';

import { api } from '#web/lib/api-client.ts';

export type EfileHeadJson = z.infer<typeof efileHeadJson>;
export type EfileSettingsJson = z.infer<typeof efileSettingsJson>;
export type NoteVersionJson = z.infer<typeof noteVersionJson>;
type LetterInFileJson = z.infer<typeof letterInFileJson>;
type Message = { message: string };

/** Query keys of e-Files (decision 107); a move invalidates every one of them. */
export const efileKeys = {
  all: ['efiles'] as const,
  box: (box: EfileBox) => ['efiles', 'box', box] as const,
  search: (q: string) => ['efiles', 'search', q] as const,
  file: (id: string) => ['efiles', 'file', id] as const,
  movements: (id: string) => ['efiles', 'movements', id] as const,
  pendency: (f: EfilePendencyFilter) => ['efiles', 'pendency', f] as const,
  noteHistory: (id: string, noteId: string) => ['efiles', 'note-history', id, noteId] as const,
  ofLetter: (letterId: string) => ['efiles', 'of-letter', letterId] as const,
  heads: ['efiles', 'heads'] as const,
  settings: ['efiles', 'settings'] as const,
  officers: ['efiles', 'officers'] as const,
  groups: ['efiles', 'groups'] as const,
};

/** GET /api/efiles?box=…: one box of My files, a page at a time (latest moved first), more on demand (decision 121). */
export const useEfileBox = (box: EfileBox, limit = DEFAULT_PAGE_SIZE) =>
  useInfiniteQuery({
    queryKey: [...efileKeys.box(box), limit],
    queryFn: ({ pageParam, signal }) =>
      api.get<EfilePageJson>('/api/efiles', {
        params: { box, cursor: pageParam, limit },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** The period and group of a pendency report (YYYY-MM-DD or '', a group id or '' for the default). */
export interface EfilePendencyFilter {
  from: string;
  to: string;
  groupId: string;
}

/** GET /api/efiles/pendency: per officer, the files with them and those closed in the period (decision 121). */
export const useEfilePendency = (f: EfilePendencyFilter) =>
  useQuery({
    queryKey: efileKeys.pendency(f),
    queryFn: ({ signal }) =>
      api.get<EfilePendencyJson>('/api/efiles/pendency', {
        params: { from: f.from || undefined, to: f.to || undefined, groupId: f.groupId || undefined },
        signal,
      }),
  });

/** GET /api/efiles/search?q=…: number, subject, note text, correspondence text, among the files I may see. */
export const useEfileSearch = (q: string) =>
  useQuery({
    queryKey: efileKeys.search(q),
    queryFn: ({ signal }) => api.get<EfileSummaryJson[]>('/api/efiles/search', { params: { q }, signal }),
    enabled: q.trim().length >= 2,
  });

/** GET /api/efiles/{id}: the file with its notes and items (the step-up is asked for by the API client). */
export const useEfile = (id: string) =>
  useQuery({
    queryKey: efileKeys.file(id),
    queryFn: ({ signal }) => api.get<EfileJson>(`/api/efiles/${id}`, { signal }),
    retry: false,
  });

/** GET /api/efiles/{id}/movements: the movement history, oldest first. */
export const useEfileMovements = (id: string, enabled = true) =>
  useQuery({
    queryKey: efileKeys.movements(id),
    queryFn: ({ signal }) => api.get<EfileMovementJson[]>(`/api/efiles/${id}/movements`, { signal }),
    enabled,
  });

/** GET /api/efiles/{id}/notes/{noteId}/history: what a draft said before each edit, and who edited it. */
export const useNoteHistory = (id: string, noteId: string, enabled: boolean) =>
  useQuery({
    queryKey: efileKeys.noteHistory(id, noteId),
    queryFn: ({ signal }) => api.get<NoteVersionJson[]>(`/api/efiles/${id}/notes/${noteId}/history`, { signal }),
    enabled,
  });

/** GET /api/efiles/of-letter/{id}: the file a letter is in, when the reader may see that file. */
export const useFileOfLetter = (letterId: string) =>
  useQuery({
    queryKey: efileKeys.ofLetter(letterId),
    queryFn: ({ signal }) => api.get<LetterInFileJson>(`/api/efiles/of-letter/${letterId}`, { signal }),
    staleTime: 30_000,
  });

export const useEfileHeads = () =>
  useQuery({
    queryKey: efileKeys.heads,
    queryFn: ({ signal }) => api.get<EfileHeadJson[]>('/api/efiles/heads', { signal }),
  });

export const useEfileSettings = () =>
  useQuery({
    queryKey: efileKeys.settings,
    queryFn: ({ signal }) => api.get<EfileSettingsJson>('/api/efiles/settings', { signal }),
  });

/** GET /api/dac/officers: whom a file may be sent to (the dak's list, with who is cleared). */
export const useEfileOfficers = (enabled = true) =>
  useQuery({
    queryKey: efileKeys.officers,
    queryFn: ({ signal }) => api.get<OfficerJson[]>('/api/dac/officers', { signal }),
    enabled,
    staleTime: 60_000,
  });

/** GET /api/groups/name: the groups a file may be owned by. */
export const useEfileGroups = (enabled = true) =>
  useQuery({
    queryKey: efileKeys.groups,
    queryFn: ({ signal }) => api.get<{ _id: string; name: string }[]>('/api/groups/name', { signal }),
    enabled,
    staleTime: 60_000,
  });

/** Every write refreshes e-Files (lists, the file, its history) and the bell. */
function useEfileWrite<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: efileKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['notifications'] });
    },
  });
}

export const useCreateEfile = () =>
  useEfileWrite((input: CreateEfileInput) => api.post<EfileJson>('/api/efiles', input));
export const useAddNote = () =>
  useEfileWrite(({ id, body }: { id: string; body: NoteBody }) =>
    api.post<Message>(`/api/efiles/${id}/notes`, { body }),
  );
export const useEditNote = () =>
  useEfileWrite(({ id, noteId, body }: { id: string; noteId: string; body: NoteBody }) =>
    api.put<Message>(`/api/efiles/${id}/notes/${noteId}`, { body }),
  );
export const useDiscardNote = () =>
  useEfileWrite(({ id, noteId }: { id: string; noteId: string }) =>
    api.del<Message>(`/api/efiles/${id}/notes/${noteId}`),
  );
export const usePutLetter = () =>
  useEfileWrite(({ id, letterId }: { id: string; letterId: string }) =>
    api.post<Message>(`/api/efiles/${id}/items/letter`, { letterId }),
  );
export const useAddDocument = () =>
  useEfileWrite(({ id, file }: { id: string; file: File }) => {
    const form = new FormData();
    form.set('document', file);
    return api.upload<Message>(`/api/efiles/${id}/items`, form);
  });
export const useSendEfile = () =>
  useEfileWrite(({ id, input }: { id: string; input: SendEfileInput }) =>
    api.post<Message>(`/api/efiles/${id}/send`, input),
  );
export const useReturnEfile = () =>
  useEfileWrite(({ id, remarks }: { id: string; remarks: string }) =>
    api.post<Message>(`/api/efiles/${id}/return`, { remarks }),
  );
export const useSetRoute = () =>
  useEfileWrite(({ id, route }: { id: string; route: string[] }) =>
    api.put<Message>(`/api/efiles/${id}/route`, { route }),
  );

/** The moves without a form: receive, pull back, park, resume, close, reopen, seen (a copy). */
export type SimpleMove = 'receive' | 'pull-back' | 'park' | 'resume' | 'close' | 'reopen' | 'seen';
export const useSimpleMove = () =>
  useEfileWrite(({ id, move, remarks }: { id: string; move: SimpleMove; remarks?: string }) =>
    api.post<Message>(`/api/efiles/${id}/${move}`, remarks === undefined ? undefined : { remarks }),
  );

export const useUpdateSettings = () =>
  useEfileWrite((input: EfileSettingsJson) => api.put<EfileSettingsJson>('/api/efiles/settings', input));
export const useAddHead = () =>
  useEfileWrite((input: { code: string; name: string }) => api.post<EfileHeadJson>('/api/efiles/heads', input));

/** The whole file as one PDF (a link, authorised by the sign-in cookie; watermarked and audited on the server). */
/** The export's link; `lang`: the screen's language, for the words of its stand-in pages (decision 121). */
export const exportHref = (id: string, lang?: string) =>
  `/api/efiles/${id}/export.pdf${lang === 'hi' || lang === 'en' ? `?lang=${lang}` : ''}`;
