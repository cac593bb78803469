import { useCallback, useEffect, useState } from 'react';

import { CLOSE_GROUP_MESSAGE_MS } from '#shared/constants.ts';

export interface TimedMessage {
  kind: 'success' | 'error';
  text: string;
  /** Distinguishes two equal messages in a row, so the second gets its own 5 seconds. */
  at: number;
}

/** A status message that clears itself after 5 seconds (spec §4, §9: close group status messages). */
export function useTimedMessage(durationMs = CLOSE_GROUP_MESSAGE_MS) {
  const [message, setMessage] = useState<TimedMessage | null>(null);
  useEffect(() => {
    if (!message) return;
    const timer = window.setTimeout(() => setMessage(null), durationMs);
    return () => window.clearTimeout(timer);
  }, [message, durationMs]);
  const show = useCallback(
    (kind: TimedMessage['kind'], text: string) => setMessage({ kind, text, at: Date.now() }),
    [],
  );
  return [message, show] as const;
}
