import { Navigate, Outlet, useLocation } from 'react-router';
import { useStoredLogin } from '#web/lib/auth-storage.ts';
import { paths } from './paths.ts';

/** Where the login screen returns to after signing in. */
export interface ReturnState {
  from?: string;
}

function useReturnState(): ReturnState {
  const location = useLocation();
  return { from: `${location.pathname}${location.search}${location.hash}` };
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
  if (user.role !== 'admin') return <Navigate to={paths.home} replace />;
  return <Outlet />;
}
