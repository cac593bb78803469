import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import type {
  ClassifyDocumentInput,
  CloseGroupDocumentJson,
  CloseGroupInput,
  CloseGroupJson,
  DocumentClassification,
  RenameDocumentInput,
} from '#shared/schemas/close-group.ts';
import type { DirectoryUserJson } from '#shared/schemas/user.ts';

import { api } from '#web/lib/api-client.ts';

export interface Page<T> {
  items: T[];
  total: number;
}
export interface PageRequest {
  limit: number;
  offset: number;
}

/** Query keys of close-group data in one place; every change invalidates `all` (the admin table and the accordion). */
export const closeGroupKeys = {
  all: ['close-groups'] as const,
  admin: (page: PageRequest) => ['close-groups', 'admin', page] as const,
  mine: (page: PageRequest) => ['close-groups', 'mine', page] as const,
  staff: (search: string) => ['close-groups', 'staff', search] as const,
};

/** Manage Close Groups: a page of every close group (GET /admin/close-group?limit&offset). Admins only. */
export const useAdminCloseGroups = (page: PageRequest) =>
  useQuery({
    queryKey: closeGroupKeys.admin(page),
    queryFn: ({ signal }) => api.get<Page<CloseGroupJson>>('/admin/close-group', { params: { ...page }, signal }),
    placeholderData: keepPreviousData,
  });

/** My Group Documents: the signed-in user's close groups with documents; the server takes the user from the token. */
export const useMyCloseGroups = (page: PageRequest) =>
  useQuery({
    queryKey: closeGroupKeys.mine(page),
    queryFn: ({ signal }) => api.get<Page<CloseGroupJson>>('/api/close-groups/mine', { params: { ...page }, signal }),
    placeholderData: keepPreviousData,
  });

/** Approved staff matching `search` (name or email, searched by the server) for the Requested By picker. */
export const useStaffOptions = (search: string) =>
  useQuery({
    queryKey: closeGroupKeys.staff(search),
    queryFn: ({ signal }) =>
      api.get<Page<DirectoryUserJson>>('/api/users', {
        params: { q: search || undefined, limit: 50, offset: 0 },
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

function useInvalidateCloseGroups() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: closeGroupKeys.all });
}

export function useSaveCloseGroup() {
  const invalidate = useInvalidateCloseGroups();
  return useMutation({
    mutationFn: ({ id, values }: { id: string | null; values: CloseGroupInput }) =>
      id
        ? api.put<CloseGroupJson>(`/admin/close-group/${id}`, values)
        : api.post<CloseGroupJson>('/admin/close-group', values),
    onSuccess: invalidate,
  });
}

export function useDeleteCloseGroup() {
  const invalidate = useInvalidateCloseGroups();
  return useMutation({
    mutationFn: (id: string) => api.del<{ message: string }>(`/admin/close-group/${id}`),
    onSuccess: invalidate,
  });
}

type DocumentResult = { message: string; document: CloseGroupDocumentJson };

export function useUploadCloseGroupDocument() {
  const invalidate = useInvalidateCloseGroups();
  return useMutation({
    mutationFn: ({
      groupId,
      file,
      classification = 'Unclassified',
      onProgress,
    }: {
      groupId: string;
      file: File;
      classification?: DocumentClassification;
      onProgress?: (percent: number) => void;
    }) => {
      const form = new FormData();
      form.append('classification', classification); // decision 072
      form.append('document', file);
      return api.upload<DocumentResult>(`/api/close-groups/${groupId}/upload`, form, { onProgress });
    },
    onSuccess: invalidate,
  });
}

export function useRenameCloseGroupDocument() {
  const invalidate = useInvalidateCloseGroups();
  return useMutation({
    mutationFn: ({ groupId, docId, ...body }: { groupId: string; docId: string } & RenameDocumentInput) =>
      api.put<DocumentResult>(`/api/close-groups/${groupId}/documents/${docId}`, body),
    onSuccess: invalidate,
  });
}

/** A document's new classification (decision 072): its uploader or an admin. */
export function useClassifyCloseGroupDocument() {
  const invalidate = useInvalidateCloseGroups();
  return useMutation({
    mutationFn: ({ groupId, docId, ...body }: { groupId: string; docId: string } & ClassifyDocumentInput) =>
      api.put<DocumentResult>(`/api/close-groups/${groupId}/documents/${docId}/classification`, body),
    onSuccess: invalidate,
  });
}

export function useDeleteCloseGroupDocument() {
  const invalidate = useInvalidateCloseGroups();
  return useMutation({
    mutationFn: ({ groupId, docId }: { groupId: string; docId: string }) =>
      api.del<{ message: string }>(`/api/close-groups/${groupId}/documents/${docId}`),
    onSuccess: invalidate,
  });
}
