import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import type {
  AddMembersInput,
  AssignableStaffJson,
  CreateGroupInput,
  GroupAchievementsJson,
  GroupItemJson,
  GroupJson,
  GroupNameJson,
  MyGroupJson,
  UpdateGroupInput,
} from '#shared/schemas/group.ts';
import type { DirectorEntryJson, OfficeMemberInput, OfficeMemberJson } from '#shared/schemas/unit.ts';

import { api } from '#web/lib/api-client.ts';

import { groupKeys } from './keys.ts';

export { groupKeys, useGroupMenu } from './keys.ts';

/** {_id, name} of every group (GET /api/groups/name): the Groups dropdown and group selects. Signed-in only. */
export const useGroupNames = ({ enabled = true } = {}) =>
  useQuery({
    queryKey: groupKeys.names,
    queryFn: ({ signal }) => api.get<GroupNameJson[]>('/api/groups/name', { signal }),
    enabled,
  });

/** The group page (GET /api/groups/id/{id}): director, admin or member, else 403 Access Denied. */
export const useGroup = (id: string) =>
  useQuery({
    queryKey: groupKeys.page(id),
    queryFn: ({ signal }) => api.get<GroupJson>(`/api/groups/id/${id}`, { signal }),
    enabled: Boolean(id),
    retry: (count, err) => count < 2 && !isClientError(err),
  });

/** The group for editing (GET /api/groups/{id}): admins and the group's current associate director. */
export const useGroupForEdit = (id: string) =>
  useQuery({
    queryKey: groupKeys.edit(id),
    queryFn: ({ signal }) => api.get<GroupJson>(`/api/groups/${id}`, { signal }),
    enabled: Boolean(id),
    retry: (count, err) => count < 2 && !isClientError(err),
  });

/** The signed-in person's own group (GET /api/groups/my-group). */
export const useMyGroup = () =>
  useQuery({
    queryKey: groupKeys.myGroup,
    queryFn: ({ signal }) => api.get<MyGroupJson>('/api/groups/my-group', { signal }),
    retry: (count, err) => count < 2 && !isClientError(err),
  });

/** Staff an admin may assign, searched on the server by name or email; `total` from X-Total-Count is not needed. */
export const useStaff = (q: string, limit = 100, { enabled = true } = {}) =>
  useQuery({
    queryKey: groupKeys.staff(q, limit),
    queryFn: ({ signal }) => api.get<AssignableStaffJson[]>('/api/groups/staff', { params: { q, limit }, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });

/** One file manager's list (GET /api/group-files/{groupId}/{field}), newest first. */
export const useGroupFiles = (groupId: string, field: string, { enabled = true } = {}) =>
  useQuery({
    queryKey: groupKeys.files(groupId, field),
    queryFn: ({ signal }) => api.get<GroupItemJson[]>(`/api/group-files/${groupId}/${field}`, { signal }),
    enabled: enabled && Boolean(groupId),
  });

/** Every group's projects, patents, technologies, courses and publications (lab home; public). */
export const useGroupAchievements = (limit: number) =>
  useQuery({
    queryKey: groupKeys.achievements(limit),
    queryFn: ({ signal }) => api.get<GroupAchievementsJson[]>('/api/group-files', { params: { limit }, signal }),
    placeholderData: keepPreviousData,
  });

function isClientError(err: unknown): boolean {
  const status = (err as { status?: number } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** After any change to a group: its page, its edit copy, the names (dropdown), My Group and the lab home lists. */
function useInvalidateGroups() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: groupKeys.all });
}

export function useCreateGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (input: CreateGroupInput) => api.post<GroupJson>('/api/groups', input),
    onSuccess: invalidate,
  });
}

export function useUpdateGroup(id: string) {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (input: UpdateGroupInput) => api.put<GroupJson>(`/api/groups/${id}`, input),
    onSuccess: invalidate,
  });
}

/** Where a list of a group lives: notices and circulars under /api/groups, the five file kinds under /api/group-files. */
export type GroupListField =
  'notices' | 'circulars' | 'projects' | 'patents' | 'technologies' | 'courses' | 'publications';
export const isDocumentField = (field: GroupListField) => field === 'notices' || field === 'circulars';
const listUrl = (groupId: string, field: GroupListField) =>
  isDocumentField(field) ? `/api/groups/${groupId}/${field}` : `/api/group-files/${groupId}/${field}`;

/** Adds (no itemId) or edits an item with multipart name, description and file, reporting upload progress. */
export function useSaveGroupItem(groupId: string, field: GroupListField) {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ itemId, form, onProgress }: { itemId?: string; form: FormData; onProgress?: (p: number) => void }) =>
      api.upload<GroupItemJson>(itemId ? `${listUrl(groupId, field)}/${itemId}` : listUrl(groupId, field), form, {
        method: itemId ? 'PUT' : 'POST',
        onProgress,
      }),
    onSuccess: invalidate,
  });
}

export function useDeleteGroupItem(groupId: string, field: GroupListField) {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (itemId: string) => api.del<{ message: string }>(`${listUrl(groupId, field)}/${itemId}`),
    onSuccess: invalidate,
  });
}

/** Associate-director history entry: multipart user or name, designation, from, to, about, image. Admins only. */
export function useSaveDirectorEntry(groupId: string) {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ entryId, form }: { entryId?: string; form: FormData }) =>
      api.upload<DirectorEntryJson>(
        entryId
          ? `/api/groups/${groupId}/assistant-director-history/${entryId}`
          : `/api/groups/${groupId}/assistant-director-history`,
        form,
        { method: entryId ? 'PUT' : 'POST' },
      ),
    onSuccess: invalidate,
  });
}

export function useDeleteDirectorEntry(groupId: string) {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (entryId: string) =>
      api.del<{ message: string }>(`/api/groups/${groupId}/assistant-director-history/${entryId}`),
    onSuccess: invalidate,
  });
}

export function useSaveOfficeMember(groupId: string) {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ memberId, input }: { memberId?: string; input: OfficeMemberInput }) =>
      memberId
        ? api.put<OfficeMemberJson>(`/api/groups/${groupId}/office/${memberId}`, input)
        : api.post<OfficeMemberJson>(`/api/groups/${groupId}/office`, input),
    onSuccess: invalidate,
  });
}

export function useDeleteOfficeMember(groupId: string) {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (memberId: string) => api.del<{ message: string }>(`/api/groups/${groupId}/office/${memberId}`),
    onSuccess: invalidate,
  });
}

export function useAddMembers(groupId: string) {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (input: AddMembersInput) =>
      api.post<{ message: string; added: number }>(`/api/groups/${groupId}/members`, input),
    onSuccess: invalidate,
  });
}

export function useMoveMember(groupId: string) {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ userId, targetId }: { userId: string; targetId: string }) =>
      api.put<{ message: string; group: GroupNameJson }>(`/api/groups/${groupId}/members/${userId}`, {
        groupId: targetId,
      }),
    onSuccess: invalidate,
  });
}

export function useRemoveMember(groupId: string) {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (userId: string) => api.del<{ message: string }>(`/api/groups/${groupId}/members/${userId}`),
    onSuccess: invalidate,
  });
}
