import { createRequire } from 'node:module';
import path from 'node:path';

import type { Config } from '#server/config.ts';

import { logHooks } from './log-warnings.ts';

// Paths, not bare names: pino resolves a bare target from its caller's file, which is not always ours.
const localRequire = createRequire(import.meta.url);
const prettyTarget = localRequire.resolve('pino-pretty');

const prettyOptions = { translateTime: 'SYS:dd mmm yyyy hh:MM:ss TT', ignore: 'pid,hostname', singleLine: false };

/** Where the log files are: DATA_DIR/logs, one file a day, `portal.<yyyy-MM-dd>.<n>.log` (pino-roll's names). */
export const logFilesDir = (dataDir: string) => path.join(dataDir, 'logs');

/**
 * pino options for the configured format: pino-pretty's readable lines (Indian date, 12-hour time) for a person at a
 * terminal, plain JSON lines otherwise. Given DATA_DIR (the server's own logger), also JSON lines to files in
 * DATA_DIR/logs rolled daily by pino-roll and kept LOG_RETENTION_DAYS (decision 125), and every warning or worse noted
 * for the log collector (server/lib/log-warnings.ts).
 */
export function loggerOptions(
  config: Pick<Config, 'logLevel' | 'logFormat'> & Partial<Pick<Config, 'dataDir' | 'logRetentionDays'>>,
): object {
  const level = config.logLevel;
  if (!config.dataDir) {
    if (config.logFormat === 'json') return { level };
    return { level, transport: { target: prettyTarget, options: prettyOptions } };
  }
  const stdout =
    config.logFormat === 'json'
      ? { target: 'pino/file', level, options: { destination: 1 } }
      : { target: prettyTarget, level, options: prettyOptions };
  const files = {
    target: localRequire.resolve('pino-roll'),
    level,
    options: {
      file: path.join(logFilesDir(config.dataDir), 'portal'),
      extension: '.log',
      frequency: 'daily',
      dateFormat: 'yyyy-MM-dd',
      mkdir: true,
      // Today's file and the LOG_RETENTION_DAYS days before it, also those an earlier run of the server wrote.
      limit: { count: config.logRetentionDays ?? 180, removeOtherLogFiles: true },
    },
  };
  return { level, hooks: logHooks, transport: { targets: [stdout, files] } };
}
