import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';

import type { Role } from '#shared/constants.ts';
import type { UserJson } from '#shared/schemas/user.ts';

import { isAdmin } from '#web/lib/access.policy.ts';
import { clearLogin, useStoredLogin } from '#web/lib/auth-storage.ts';
import { paths } from '#web/lib/paths.ts';

import { followProviderLogout, logout } from './api.ts';

export interface Session {
  user: UserJson | null;
  role: Role | null;
  userId: string | null;
  isSignedIn: boolean;
  isAdmin: boolean;
  /** Clears everything stored, tells the server, and goes to /login (spec §4 Session). */
  signOut: () => void;
}

/** The signed-in person as the browser stored them at login. A convenience for menus: the server decides access. */
export function useSession(): Session {
  const { token, user } = useStoredLogin();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = useCallback(() => {
    const answer = logout(); // sent with the token, before it is forgotten
    clearLogin();
    queryClient.clear(); // no personal data of this person stays in the page
    void navigate(paths.login, { replace: true });
    void answer.then(followProviderLogout); // a single sign-on session: the provider's sign-out next
  }, [navigate, queryClient]);
  const isSignedIn = Boolean(token && user);
  return {
    user: isSignedIn ? user : null,
    role: isSignedIn ? (user?.role ?? null) : null,
    userId: isSignedIn ? (user?._id ?? null) : null,
    isSignedIn,
    isAdmin: isSignedIn && isAdmin(user?.role),
    signOut,
  };
}
