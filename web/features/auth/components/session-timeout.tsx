import { Button, Group, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import type { ReturnState } from '#web/lib/auth-storage.ts';
import { clearLogin, getStoredToken, markSessionExpired, subscribeToLogin, tokenTimes } from '#web/lib/auth-storage.ts';
import { paths } from '#web/lib/paths.ts';

import { followProviderLogout, logout, useRefreshSession } from '../api.ts';
import { formatCountdown, warningAt } from '../session-timing.ts';

/**
 * The session-timeout warning (decision 019; GIGW 3.0, WCAG 2.2.1 Timing Adjustable): before the stored sign-in
 * expires a dialog offers "Stay signed in" (POST /api/auth/refresh: a fresh token and download cookie) or "Sign out".
 * At expiry the person is signed out and sent to /login with a message, which returns them here after signing in.
 */
export function SessionTimeout() {
  const { t } = useTranslation('site');
  // The stored token even once expired (useStoredLogin would drop it at expiry and so cancel the expiry timer).
  const token = useSyncExternalStore(subscribeToLogin, getStoredToken, () => null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refresh = useRefreshSession();
  // The token the warning is open for: a new token (refreshed, or signed in again) closes it by itself.
  const [warnedFor, setWarnedFor] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const open = token !== null && warnedFor === token;
  const setOpen = (value: boolean) => setWarnedFor(value ? token : null);
  const expiresAt = token ? (tokenTimes(token)?.expiresAt ?? null) : null;

  useEffect(() => {
    if (!token) return;
    const times = tokenTimes(token);
    if (!times) return;
    const expire = () => {
      setWarnedFor(null);
      void logout();
      markSessionExpired(); // the login screen says why, whichever redirect gets there first
      const { pathname, search, hash } = window.location;
      const state: ReturnState = { from: `${pathname}${search}${hash}`, expired: true };
      clearLogin();
      queryClient.clear(); // no personal data stays in the page
      void navigate(paths.login, { replace: true, state });
    };
    const warn = () => {
      setNow(Date.now());
      setWarnedFor(token);
    };
    const warnTimer = setTimeout(warn, Math.max(0, warningAt(times) - Date.now()));
    const expireTimer = setTimeout(expire, Math.max(0, times.expiresAt * 1000 - Date.now()));
    return () => {
      clearTimeout(warnTimer);
      clearTimeout(expireTimer);
    };
  }, [token, navigate, queryClient]);

  // The countdown in the dialog, once a second while it is open.
  useEffect(() => {
    if (!open) return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, [open]);

  const stay = () =>
    refresh.mutate(undefined, {
      onSuccess: () => setOpen(false), // the new token restarts the timers
      onError: () => notifications.show({ color: 'red', message: t('session.refreshFailed') }),
    });
  const signOut = () => {
    setOpen(false);
    void logout().then(followProviderLogout);
    clearLogin();
    queryClient.clear();
    void navigate(paths.login, { replace: true });
  };

  if (!token || expiresAt === null) return null;
  return (
    <Modal
      opened={open}
      onClose={() => setOpen(false)}
      title={t('session.warningTitle')}
      centered
      closeOnClickOutside={false}
      // The person must choose: the dialog is about their work, not a passing notice.
      withCloseButton={false}
    >
      <Text mb="lg" aria-live="polite">
        {t('session.warning', { time: formatCountdown(expiresAt * 1000 - now) })}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={signOut}>
          {t('session.signOut')}
        </Button>
        <Button onClick={stay} loading={refresh.isPending} data-autofocus>
          {t('session.stay')}
        </Button>
      </Group>
    </Modal>
  );
}
