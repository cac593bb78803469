/** How long before a sign-in ends the warning opens (decision 019; GIGW 3.0, WCAG 2.2.1). */
export const SESSION_WARNING_MS = 2 * 60 * 1000;

/**
 * When to warn, as milliseconds since the epoch: two minutes before the token expires, or at half its lifetime when
 * the whole sign-in lasts less than four minutes (a short JWT_EXPIRES_IN, as the e2e test uses), so the person always
 * has the sign-in for a while before being asked (decision 019).
 */
export function warningAt(times: { issuedAt: number | null; expiresAt: number }): number {
  const expiresMs = times.expiresAt * 1000;
  const lifetimeMs = times.issuedAt === null ? Infinity : expiresMs - times.issuedAt * 1000;
  return expiresMs - Math.min(SESSION_WARNING_MS, lifetimeMs / 2);
}

/** "1:59" — minutes and seconds left, for the warning's countdown. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}
