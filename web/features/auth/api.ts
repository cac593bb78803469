import { useMutation, useQuery } from '@tanstack/react-query';

import type { AuthOptionsJson, LoginInput, LoginJson, LogoutJson, RegisterInput } from '#shared/schemas/auth.ts';
import type { UserJson } from '#shared/schemas/user.ts';

import { api } from '#web/lib/api-client.ts';
import { saveLogin } from '#web/lib/auth-storage.ts';

/** POST /api/auth/login; on success the login is stored (spec §4: token, user, role, user id). */
export const useLogin = () =>
  useMutation({
    mutationFn: (input: LoginInput) => api.post<LoginJson>('/api/auth/login', input),
    onSuccess: (login) => saveLogin(login),
  });

/** POST /api/auth/register: the new account waits for an administrator's approval. */
export const useRegister = () =>
  useMutation({
    mutationFn: (input: RegisterInput) => api.post<{ message: string; user: UserJson }>('/api/auth/register', input),
  });

/**
 * Ends this session on the server and drops its download cookie; the caller clears the stored login either way. After
 * single sign-on the answer carries the provider's end-session address (decision 063): see followProviderLogout.
 */
export const logout = () => api.post<LogoutJson>('/api/auth/logout').catch(() => undefined);

/** After signing out of a single sign-on session, the provider's own sign-out (RP-initiated logout, decision 063). */
export const followProviderLogout = (answer: LogoutJson | undefined) => {
  if (answer?.logoutUrl) window.location.assign(answer.logoutUrl);
};

/** GET /api/auth/options: whether the login page offers single sign-on, and its button's words (decision 063). */
export const useAuthOptions = () =>
  useQuery({
    queryKey: ['auth', 'options'],
    queryFn: () => api.get<AuthOptionsJson>('/api/auth/options'),
    staleTime: 5 * 60_000,
  });

/** POST /api/auth/sso/exchange: the one-time code of `/login?sso=<code>` for the login, stored like a password's. */
export const useSsoExchange = () =>
  useMutation({
    mutationFn: (code: string) => api.post<LoginJson>('/api/auth/sso/exchange', { code }),
    onSuccess: (login) => saveLogin(login),
  });

/** "Stay signed in" (issue 16 item 5): a fresh token for a session that is still valid; stored like a login. */
export const useRefreshSession = () =>
  useMutation({
    mutationFn: () => api.post<LoginJson>('/api/auth/refresh'),
    onSuccess: (login) => saveLogin(login),
  });
