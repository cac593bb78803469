import type { FastifyInstance } from 'fastify';

import { checkClock, CLOCK_CHECK_MINUTES, type ClockState, forgetClock } from '#server/lib/clock.ts';

/**
 * With NTP_SERVER set (decision 126), the clock is checked once the app is ready (not awaited: a silent NTP server
 * never holds the start) and every CLOCK_CHECK_MINUTES; an offset over a second, or none, is logged as a warning, so
 * it reaches the log collector too (decision 125).
 */
export function clockCheck(app: FastifyInstance): void {
  const server = app.config.ntpServer;
  if (!server) return;
  const warn = (state: ClockState) =>
    app.log.warn(
      { clock: state },
      state.offsetMs === null
        ? `the clock could not be checked against ${server}: ${state.error}`
        : `the clock is ${state.offsetMs} ms off ${server}, more than a second`,
    );
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    void checkClock(server, warn);
    timer = setInterval(() => void checkClock(server, warn), CLOCK_CHECK_MINUTES * 60_000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    forgetClock();
  });
}
