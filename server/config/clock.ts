import { z } from 'zod';

import { refuse, variable } from './variables.ts';

/** NTP_SERVER (decision 126): the NTP server the clock is checked against, `host` or `host:port`; unset, no check. */
export const clockEnv = z.object({
  NTP_SERVER: variable((v, ctx) => {
    if (v === undefined) return undefined;
    const s = v.trim();
    if (/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(s)) return s;
    return refuse(ctx, `NTP_SERVER must be a host name or address, with :port if not 123 (got "${v}").`);
  }),
});
