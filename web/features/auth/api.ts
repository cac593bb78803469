import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import type {
  AuthOptionsJson,
  ForgotPasswordInput,
  LoginInput,
  LoginJson,
  LogoutJson,
  PasswordResetInput,
  RegisterInput,
  SecondFactorsJson,
  SessionJson,
  SignInStepJson,
  StepUpInput,
  StepUpJson,
  TotpConfirmJson,
  TotpEnrolJson,
} from '#shared/schemas/auth.ts';
import type { ExpiredPasswordInput, UserJson } from '#shared/schemas/user.ts';

/**
 * Whether a sign-in answer is a step, not a session (shared/schemas/auth.ts has the same check): written here with the
 * schemas' types alone, as a value import of them would bring zod into the first page's shell (the budget).
 */
const isSignInStep = (answer: LoginJson): answer is SignInStepJson => 'ticket' in answer;

import { api } from '#web/lib/api-client.ts';
import { saveLogin } from '#web/lib/auth-storage.ts';

/** POST /api/auth/login; on success the login is stored (spec §4: token, user, role, user id). */
export const useLogin = () =>
  useMutation({
    mutationFn: (input: LoginInput) => api.post<LoginJson>('/api/auth/login', input),
    // The second-factor step (decision 064) is no login yet: it is stored once the factor is passed.
    onSuccess: (login) => void (isSignInStep(login) || saveLogin(login)),
  });

/** POST /api/auth/expired-password (decision 117): the new password with the step's ticket; answers as a sign-in. */
export const useExpiredPassword = () =>
  useMutation({
    mutationFn: (input: ExpiredPasswordInput) => api.post<LoginJson>('/api/auth/expired-password', input),
    onSuccess: (login) => void (isSignInStep(login) || saveLogin(login)),
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

/** POST /api/auth/forgot-password (decision 077): the same answer for any email; a link goes to an account's. */
export const useForgotPassword = () =>
  useMutation({
    mutationFn: (input: ForgotPasswordInput) => api.post<{ message: string }>('/api/auth/forgot-password', input),
  });

/** POST /api/auth/reset-password: the mailed link's token and a new password; the person then signs in with it. */
export const useResetPassword = () =>
  useMutation({
    mutationFn: (input: PasswordResetInput) => api.post<{ message: string }>('/api/auth/reset-password', input),
  });

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
    onSuccess: (login) => void (isSignInStep(login) || saveLogin(login)),
  });

/** "Stay signed in" (decision 019): a fresh token for a session that is still valid; stored like a login. */
export const useRefreshSession = () =>
  useMutation({
    mutationFn: () => api.post<SessionJson>('/api/auth/refresh'),
    onSuccess: (login) => saveLogin(login),
  });

/** POST /api/auth/step-up: the step-up before classified letters (decision 066), with the password or a code. */
export const confirmIdentity = (input: StepUpInput) => api.post<StepUpJson>('/api/auth/step-up', input);

// The second factor (decision 064). `ticket`: the sign-in's, while no session exists; without it the stored login's.
export const secondFactorKeys = { mine: ['second-factor'] as const };

/** GET /api/auth/second-factor: my factors and recovery codes left (My Account → Security). */
export const useSecondFactors = () =>
  useQuery({ queryKey: secondFactorKeys.mine, queryFn: () => api.get<SecondFactorsJson>('/api/auth/second-factor') });

/** POST /api/auth/second-factor/verify: a TOTP or recovery code; the session is stored. */
export const useVerifySecondFactor = () =>
  useMutation({
    mutationFn: (input: { ticket?: string; code: string }) =>
      api.post<SessionJson>('/api/auth/second-factor/verify', input),
    onSuccess: (login) => saveLogin(login),
  });

/** POST /api/auth/second-factor/totp/enrol: a new secret and its QR code. */
export const useEnrolTotp = () =>
  useMutation({
    mutationFn: (input: { ticket?: string }) => api.post<TotpEnrolJson>('/api/auth/second-factor/totp/enrol', input),
  });

/** POST /api/auth/second-factor/totp/confirm: at sign-in the session is stored; the recovery codes come back once. */
export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { ticket?: string; code: string; label?: string }) =>
      api.post<TotpConfirmJson>('/api/auth/second-factor/totp/confirm', input),
    onSuccess: (answer) => {
      if (answer.token && answer.user) saveLogin({ token: answer.token, user: answer.user });
      void queryClient.invalidateQueries({ queryKey: secondFactorKeys.mine });
    },
  });
}

/** POST /api/auth/second-factor/recovery-codes: ten new codes for a fresh code. */
export function useNewRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      api.post<{ recoveryCodes: string[] }>('/api/auth/second-factor/recovery-codes', { code }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: secondFactorKeys.mine }),
  });
}

/** DELETE /api/auth/second-factor/:id: removes one of my factors. */
export function useRemoveSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del<{ message: string }>(`/api/auth/second-factor/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: secondFactorKeys.mine }),
  });
}
