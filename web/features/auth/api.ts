import { useMutation } from '@tanstack/react-query';
import type { LoginInput, LoginJson, RegisterInput } from '#shared/schemas/auth.ts';
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

/** Tells the server to drop its download cookie; the stored login is cleared by the caller either way. */
export const logout = () => api.post<{ message: string }>('/api/auth/logout').catch(() => undefined);
