import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { SessionJson, TotpConfirmJson } from '#shared/schemas/auth.ts';

import { api } from '#web/lib/api-client.ts';
import { saveLogin } from '#web/lib/auth-storage.ts';

import { secondFactorKeys } from './api.ts';

// Passkeys, the stronger second factor (decision 065): the server makes the WebAuthn options and checks the answers;
// @simplewebauthn/browser asks the browser (navigator.credentials) in between.

const BASE = '/api/auth/second-factor/passkey';

/**
 * Signs with a passkey: at sign-in with the password step's `ticket` (the session it answers is stored, as a login
 * is), or signed in (the session passes its second factor).
 */
export const usePasskeySignIn = () =>
  useMutation({
    mutationFn: async ({ ticket }: { ticket?: string }) => {
      const optionsJSON = await api.post<PublicKeyCredentialRequestOptionsJSON>(`${BASE}/authentication-options`, {
        ticket,
      });
      const response = await startAuthentication({ optionsJSON });
      return api.post<SessionJson>(`${BASE}/verify`, { ticket, response });
    },
    onSuccess: (session, { ticket }) => {
      if (ticket) saveLogin(session);
    },
  });

/**
 * Adds a passkey named `label`: at enrolment with the sign-in `ticket` (the session it starts is stored), or signed in
 * from My Account. Answers the recovery codes of a first factor (shown once).
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ticket, label }: { ticket?: string; label: string }) => {
      const optionsJSON = await api.post<PublicKeyCredentialCreationOptionsJSON>(`${BASE}/registration-options`, {
        ticket,
      });
      const response = await startRegistration({ optionsJSON });
      return api.post<TotpConfirmJson>(`${BASE}/register`, { ticket, label, response });
    },
    onSuccess: (answer) => {
      if (answer.token && answer.user) saveLogin({ token: answer.token, user: answer.user });
      void queryClient.invalidateQueries({ queryKey: secondFactorKeys.mine });
    },
  });
}

/**
 * Did the person close the browser's passkey prompt (or let it time out)? @simplewebauthn/browser passes on the
 * browser's NotAllowedError then: said as "cancelled", not as a failure of the portal.
 */
export const passkeyCancelled = (err: unknown) => err instanceof Error && err.name === 'NotAllowedError';
