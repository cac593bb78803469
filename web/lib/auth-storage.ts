import { useSyncExternalStore } from 'react';

import type { Role } from '#shared/constants.ts';
import type { UserJson } from '#shared/schemas/user.ts';

/**
 * The stored login (spec §4 Session): token, user, role and user id in browser storage. Sign out clears them all.
 * NOTE: the server also sets an httpOnly cookie at login, used only for file links opened in a new tab (decision 003).
 */
const KEYS = { token: 'token', user: 'user', role: 'role', userId: 'userId' } as const;

export interface StoredLogin {
  token: string;
  user: UserJson;
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage disabled: behave as signed out
  }
}

/** When a JWT was issued and when it expires (seconds since the epoch), or null when it carries no readable `exp`. */
export function tokenTimes(token: string): { issuedAt: number | null; expiresAt: number } | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown; iat?: unknown };
    if (typeof json.exp !== 'number') return null;
    return { issuedAt: typeof json.iat === 'number' ? json.iat : null, expiresAt: json.exp };
  } catch {
    return null;
  }
}

const expiryOf = (token: string) => tokenTimes(token)?.expiresAt ?? null;

/** The stored bearer token, or null when there is none or it has expired. */
export function getToken(): string | null {
  const token = read(KEYS.token);
  if (!token) return null;
  const exp = expiryOf(token);
  return exp !== null && exp * 1000 <= Date.now() ? null : token;
}

/**
 * The stored token as it is, expired or not: the session-timeout warning must keep its timers on the token that is
 * running out, where getToken() already answers null.
 */
export const getStoredToken = (): string | null => read(KEYS.token);

let cachedUserText: string | null = null;
let cachedUser: UserJson | null = null;

/** The user saved at login (may be older than the server's record; screens that need fresh data ask the API). */
export function getUser(): UserJson | null {
  const text = read(KEYS.user);
  if (text !== cachedUserText) {
    cachedUserText = text;
    try {
      cachedUser = text ? (JSON.parse(text) as UserJson) : null;
    } catch {
      cachedUser = null;
    }
  }
  return cachedUser;
}

export const getRole = () => read(KEYS.role) as Role | null;
/** The own-profile user id (spec §6: it comes from browser storage). */
export const getUserId = () => read(KEYS.userId);

/** Stores a successful login (POST /api/auth/login answer). */
export function saveLogin({ token, user }: StoredLogin): void {
  localStorage.setItem(KEYS.token, token);
  localStorage.setItem(KEYS.user, JSON.stringify(user));
  localStorage.setItem(KEYS.role, user.role);
  localStorage.setItem(KEYS.userId, user._id);
  notify();
}

/** Replaces the stored user after the person edits their own profile. */
export function updateStoredUser(user: UserJson): void {
  if (!read(KEYS.token)) return;
  localStorage.setItem(KEYS.user, JSON.stringify(user));
  localStorage.setItem(KEYS.role, user.role);
  notify();
}

/** Forgets the login (sign out, or a 401 from the API). */
export function clearLogin(): void {
  try {
    Object.values(KEYS).forEach((key) => localStorage.removeItem(key));
  } catch {
    // storage disabled: nothing stored
  }
  notify();
}

const EXPIRED_KEY = 'sessionExpired';

/**
 * Notes in this tab that the sign-in ran out (decision 019), so the login screen can say so whichever redirect
 * brings the person there (the session warning's own, or a guarded page's once the login is gone).
 */
export function markSessionExpired(): void {
  try {
    sessionStorage.setItem(EXPIRED_KEY, '1');
  } catch {
    // storage disabled: the login screen simply does not say why
  }
}

/** Whether the sign-in ran out, as noted by markSessionExpired; `forget` removes the note. */
export function sessionExpiredNote({ forget = false } = {}): boolean {
  try {
    const noted = sessionStorage.getItem(EXPIRED_KEY) === '1';
    if (forget) sessionStorage.removeItem(EXPIRED_KEY);
    return noted;
  } catch {
    return false;
  }
}

/** Calls `listener` when the login changes, in this tab or another. */
export function subscribeToLogin(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || Object.values<string>(KEYS).includes(event.key)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const snapshot = () => `${getToken() ?? ''}|${read(KEYS.user) ?? ''}`;

/** Re-renders the caller when the stored login changes; returns {token, user}. */
export function useStoredLogin(): { token: string | null; user: UserJson | null } {
  useSyncExternalStore(subscribeToLogin, snapshot, () => '|');
  const token = getToken();
  return { token, user: token ? getUser() : null };
}

/** Where the login screen returns to after signing in (router state set by the guards and the session timeout). */
export interface ReturnState {
  from?: string;
  /** The sign-in ran out (session timeout, decision 019): the login screen says so. */
  expired?: boolean;
}
