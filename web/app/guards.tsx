import { Navigate, Outlet, useLocation } from 'react-router';

import { isAdmin, readsAuditTrail } from '#web/lib/access.policy.ts';
import type { ReturnState } from '#web/lib/auth-storage.ts';
import { getStoredToken, sessionExpiredNote, useStoredLogin } from '#web/lib/auth-storage.ts';
import { paths } from '#web/lib/paths.ts';

export type { ReturnState };

function useReturnState(): ReturnState {
  const location = useLocation();
  const { token } = useStoredLogin();
  // A token still stored but past its expiry: the sign-in ran out here, and the login screen says so (decision 019).
  const expired = (Boolean(getStoredToken()) && !token) || sessionExpiredNote();
  return { from: `${location.pathname}${location.search}${location.hash}`, ...(expired ? { expired } : {}) };
}

/**
 * Signed-in guard (spec §2, §6): a stored, unexpired token, else /login (which comes back here after signing in).
 * A convenience only: every API route checks the token and the role on the server.
 */
export function RequireAuth() {
  const { token, user } = useStoredLogin();
  const state = useReturnState();
  if (!token || !user) return <Navigate to={paths.login} replace state={state} />;
  return <Outlet />;
}

/**
 * Admin guard (spec §2, §6): a signed-in non-admin is sent to /. A visitor with no login at all is sent to /login
 * first, as on every other page that needs a login (decision 011).
 */
export function RequireAdmin() {
  const { token, user } = useStoredLogin();
  const state = useReturnState();
  if (!token || !user) return <Navigate to={paths.login} replace state={state} />;
  if (!isAdmin(user.role)) return <Navigate to={paths.home} replace />;
  return <Outlet />;
}

/**
 * The audit trail's guard: admins and directors (web/lib/access.policy.ts readsAuditTrail); anyone else
 * signed in is sent to /, as the admin guard does, and a visitor to /login first. A convenience only: the API refuses
 * them with 403 `audit.read_forbidden`.
 */
export function RequireAuditReader() {
  const { token, user } = useStoredLogin();
  const state = useReturnState();
  if (!token || !user) return <Navigate to={paths.login} replace state={state} />;
  if (!readsAuditTrail(user.role)) return <Navigate to={paths.home} replace />;
  return <Outlet />;
}
