import { createRequire } from 'node:module';

import type { Config } from '#server/config.ts';

// A path, not a bare name: pino resolves a bare target from its caller's file, which is not always ours.
const prettyTarget = createRequire(import.meta.url).resolve('pino-pretty');

/**
 * pino options for the configured format: pino-pretty's readable lines (Indian date, 12-hour time) for a person at a
 * terminal, plain JSON lines otherwise.
 */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'logFormat'>): object {
  if (config.logFormat === 'json') return { level: config.logLevel };
  return {
    level: config.logLevel,
    transport: {
      target: prettyTarget,
      options: { translateTime: 'SYS:dd mmm yyyy hh:MM:ss TT', ignore: 'pid,hostname', singleLine: false },
    },
  };
}
