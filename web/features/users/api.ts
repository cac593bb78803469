import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import type { Role, UserStatus } from '#shared/constants.ts';
import type { ActiveSessionJson, ApproveUserInput } from '#shared/schemas/auth.ts';
import type { GroupNameJson } from '#shared/schemas/group.ts';
import type { MailPreferencesInput, MailPreferencesJson } from '#shared/schemas/mail-preferences.ts';
import type { SsoLinkRequestJson } from '#shared/schemas/sso-link.ts';
import type {
  ActivityLogPageJson,
  ChangePasswordInput,
  DirectoryUserJson,
  ManagedUserJson,
  ProfileJson,
  UpdateProfileInput,
  UpdateUserAccessInput,
  UserDocumentJson,
  UserJson,
} from '#shared/schemas/user.ts';

import { api } from '#web/lib/api-client.ts';

export interface Page<T> {
  items: T[];
  total: number;
}

export interface DirectoryFilter {
  q: string;
  role: Role | '';
  groupId: string;
}
export interface ManageUsersFilter extends DirectoryFilter {
  status: UserStatus | '';
}
export interface LogsFilter {
  q: string;
  userId: string;
  from: string;
  to: string;
}
export interface PageRequest {
  limit: number;
  offset: number;
}

/** Query keys of people data in one place; a mutation invalidates the keys it changed. */
export const userKeys = {
  all: ['users'] as const,
  profile: (id: string) => ['users', 'profile', id] as const,
  directory: (filter: DirectoryFilter, page: PageRequest) => ['users', 'directory', filter, page] as const,
  pending: ['users', 'pending'] as const,
  /**
   * The single sign-on link requests (decision 090). Not under 'users': the approvals' mutations wait for the refetch
   * of what they invalidate before their callbacks run, and a second list refetched there would unmount the card (and
   * drop its toast) in between.
   */
  ssoLinks: ['sso-links'] as const,
  managed: (filter: ManageUsersFilter, page: PageRequest) => ['users', 'managed', filter, page] as const,
  logs: (filter: LogsFilter, page: PageRequest) => ['users', 'logs', filter, page] as const,
  people: (q: string) => ['users', 'people', q] as const,
  /** The same key and answer as the groups feature's group names, so both screens share one fetch. */
  groupNames: ['groups', 'names'] as const,
};

/** Leaves out blank filters, so the query string carries only what was chosen. */
const present = <T extends object>(filter: T) =>
  Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== '' && v !== null && v !== undefined));

/** {_id, name} of every group (GET /api/groups/name), for the group selects of Manage Users. */
export const useGroupOptions = () =>
  useQuery({
    queryKey: userKeys.groupNames,
    queryFn: ({ signal }) => api.get<GroupNameJson[]>('/api/groups/name', { signal }),
  });

// ---- my profile -------------------------------------------------------------------------------------------------

/** GET /api/users/{id}: the whole profile (the owner and admins). */
export const useProfile = (id: string | null) =>
  useQuery({
    queryKey: userKeys.profile(id ?? ''),
    queryFn: ({ signal }) => api.get<ProfileJson>(`/api/users/${id}`, { signal }),
    enabled: Boolean(id),
  });

export function useUpdateProfile(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateProfileInput) => api.put<ProfileJson>(`/api/users/${id}`, input),
    onSuccess: (profile) => {
      queryClient.setQueryData(userKeys.profile(id), profile);
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}

export function useUploadPhoto(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress?: (percent: number) => void }) => {
      const body = new FormData();
      body.append('photo', file);
      return api.upload<{ photo: string }>(`/api/users/${id}/upload-photo`, body, { onProgress });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** POST /api/auth/logout-all: ends every session of the signed-in account, this one included. */
export const useSignOutEverywhere = () =>
  useMutation({ mutationFn: () => api.post<{ message: string }>('/api/auth/logout-all') });

export const useChangePassword = (id: string) =>
  useMutation({
    mutationFn: (input: ChangePasswordInput) =>
      api.put<{ message: string; token: string }>(`/api/users/${id}/password`, input),
  });

// ---- employee directory -----------------------------------------------------------------------------------------

/** GET /api/users with limit/offset: a page of approved staff, searched and filtered by the server. */
export const useDirectory = (filter: DirectoryFilter, page: PageRequest) =>
  useQuery({
    queryKey: userKeys.directory(filter, page),
    queryFn: ({ signal }) =>
      api.get<Page<DirectoryUserJson>>('/api/users', { params: { ...present(filter), ...page }, signal }),
    placeholderData: keepPreviousData,
  });

// ---- approval ---------------------------------------------------------------------------------------------------

/** GET /admin/pending-users: everyone waiting, oldest first (the largest page the server gives). */
export const usePendingUsers = () =>
  useQuery({
    queryKey: userKeys.pending,
    queryFn: ({ signal }) => api.get<UserJson[]>('/admin/pending-users', { params: { limit: 100 }, signal }),
  });

export function useApproveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, input }: { userId: string; input: ApproveUserInput }) =>
      api.post<{ message: string; user: UserJson }>(`/admin/approve-user/${userId}`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useRejectUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, reason }: { userId: string; reason: string }) =>
      api.post<{ message: string }>(`/admin/reject-user/${userId}`, { reason }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

// ---- single sign-on links (decision 090) -------------------------------------------------------------------------

/** GET /admin/sso-link-requests: the first single sign-ins waiting to be linked to an account, oldest first. */
export const useSsoLinkRequests = () =>
  useQuery({
    queryKey: userKeys.ssoLinks,
    queryFn: ({ signal }) => api.get<SsoLinkRequestJson[]>('/admin/sso-link-requests', { signal }),
  });

/** Approve (link the account) or dismiss a link request; either refreshes the requests and the people lists. */
export function useDecideSsoLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ requestId, decision }: { requestId: string; decision: 'approve' | 'dismiss' }) =>
      api.post<{ message: string }>(`/admin/sso-link-requests/${requestId}/${decision}`),
    // Not awaited: the dialog's own callbacks (toast, close) run at once, the lists refresh behind them.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userKeys.ssoLinks });
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}

// ---- Manage Users -----------------------------------------------------------------------------------------------

/** GET /admin/users: a page of every account with its documents. Admins only. */
export const useManagedUsers = (filter: ManageUsersFilter, page: PageRequest) =>
  useQuery({
    queryKey: userKeys.managed(filter, page),
    queryFn: ({ signal }) =>
      api.get<Page<ManagedUserJson>>('/admin/users', { params: { ...present(filter), ...page }, signal }),
    placeholderData: keepPreviousData,
  });

/** People matching `q` by name or email, for the logs' user filter (any account, also deactivated). */
export const usePeopleOptions = (q: string) =>
  useQuery({
    queryKey: userKeys.people(q),
    queryFn: ({ signal }) =>
      api.get<Page<ProfileJson>>('/admin/users', { params: { q: q || undefined, limit: 20, offset: 0 }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** One Manage Users action on one account; every one refreshes the people lists. */
function useUserAction<I>(call: (userId: string, input: I) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, input }: { userId: string; input: I }) => call(userId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export const useUpdateUserAccess = () =>
  useUserAction((userId, input: UpdateUserAccessInput) => api.put(`/admin/users/${userId}/access`, input));
/** PUT /admin/users/{id}/clearance: cleared for Confidential and Secret letters, or not (decision 020). */
export const useSetClearance = () =>
  useUserAction((userId, input: { cleared: boolean }) => api.put(`/admin/users/${userId}/clearance`, input));
/** DELETE /admin/users/{id}/sso-link: the account no longer signs in by single sign-on (decision 090). */
export const useRemoveSsoLink = () =>
  useUserAction((userId, _input: undefined) => api.del(`/admin/users/${userId}/sso-link`));
export const useDeactivateUser = () =>
  useUserAction((userId, input: { reason: string }) => api.post(`/admin/users/${userId}/deactivate`, input));
export const useReactivateUser = () =>
  useUserAction((userId, _input: void) => api.post(`/admin/users/${userId}/reactivate`));
export const useResetPassword = () =>
  useUserAction((userId, input: { newPassword: string }) => api.post(`/admin/users/${userId}/reset-password`, input));
/** An admin resets another person's second factor (decision 064): their factors go and their sessions end. */
export const useResetSecondFactor = () =>
  useUserAction((userId, _input: undefined) => api.post(`/api/users/${userId}/second-factor/reset`));
export const useUploadUserDocument = () =>
  useUserAction((userId, input: { file: File; onProgress?: (percent: number) => void }) => {
    const body = new FormData();
    body.append('document', input.file);
    return api.upload<UserDocumentJson>(`/admin/users/${userId}/documents`, body, { onProgress: input.onProgress });
  });
export const useRemoveUserDocument = () =>
  useUserAction((userId, documentId: string) => api.del(`/admin/users/${userId}/documents/${documentId}`));

// ---- activity logs ----------------------------------------------------------------------------------------------

/** GET /admin/logs with limit/offset: newest first, searched and filtered by the server. */
export const useActivityLogs = (filter: LogsFilter, page: PageRequest) =>
  useQuery({
    queryKey: userKeys.logs(filter, page),
    queryFn: ({ signal }) =>
      api.get<ActivityLogPageJson>('/admin/logs', { params: { ...present(filter), ...page }, signal }),
    placeholderData: keepPreviousData,
  });

/** GET /api/auth/sessions: my live sessions, newest first, this one marked (My Account → Security). */
export const sessionKeys = { all: ['auth', 'sessions'] as const };
export const useMySessions = () =>
  useQuery({
    queryKey: sessionKeys.all,
    queryFn: ({ signal }) => api.get<ActiveSessionJson[]>('/api/auth/sessions', { signal }),
  });

/** DELETE /api/auth/sessions/{id}: "Sign out" of one of my sessions. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del<{ message: string }>(`/api/auth/sessions/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

// ---- my mail -----------------------------------------------------------------------------------------

const mailPreferencesKey = ['users', 'me', 'mail-preferences'] as const;

/** GET /api/users/me/mail-preferences: whether the portal mails, and the person's choice per kind. */
export const useMailPreferences = () =>
  useQuery({
    queryKey: mailPreferencesKey,
    queryFn: ({ signal }) => api.get<MailPreferencesJson>('/api/users/me/mail-preferences', { signal }),
  });

/** PUT /api/users/me/mail-preferences: one kind's new choice. */
export function useSetMailPreference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MailPreferencesInput) => api.put<MailPreferencesJson>('/api/users/me/mail-preferences', input),
    onSuccess: (saved) => queryClient.setQueryData(mailPreferencesKey, saved),
  });
}
