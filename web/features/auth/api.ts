import { useMutation } from '@tanstack/react-query';

import {
  isSecondFactorStep,
  type LoginInput,
  type LoginJson,
  type RegisterInput,
  type SessionJson,
} from '#shared/schemas/auth.ts';
import type { UserJson } from '#shared/schemas/user.ts';

import { api } from '#web/lib/api-client.ts';
import { saveLogin } from '#web/lib/auth-storage.ts';

/**
 * POST /api/auth/login; a session is stored (spec §4: token, user, role, user id). The second-factor step (a ticket,
 * where the installation requires a factor: decision 064) stores nothing yet.
 */
export const useLogin = () =>
  useMutation({
    mutationFn: (input: LoginInput) => api.post<LoginJson>('/api/auth/login', input),
    onSuccess: (login) => {
      if (!isSecondFactorStep(login)) saveLogin(login);
    },
  });

/** POST /api/auth/register: the new account waits for an administrator's approval. */
export const useRegister = () =>
  useMutation({
    mutationFn: (input: RegisterInput) => api.post<{ message: string; user: UserJson }>('/api/auth/register', input),
  });

/** Ends this session on the server and drops its download cookie; the caller clears the stored login either way. */
export const logout = () => api.post<{ message: string }>('/api/auth/logout').catch(() => undefined);

/** "Stay signed in" (issue 16 item 5): a fresh token for a session that is still valid; stored like a login. */
export const useRefreshSession = () =>
  useMutation({
    mutationFn: () => api.post<SessionJson>('/api/auth/refresh'),
    onSuccess: (login) => saveLogin(login),
  });
