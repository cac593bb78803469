import { spawnSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { loadConfig } from '#server/config.ts';

import { loggerOptions } from './logger.ts';

const env = { DATA_DIR: 'data-test-logger', JWT_SECRET: 'x'.repeat(32) };

/** Logs one request line through pino with the options for `format` and answers what reached stdout. */
function logLine(format: 'pretty' | 'json'): string {
  const options = JSON.stringify(loggerOptions({ logLevel: 'info', logFormat: format }));
  const script = `const pino = require('pino'); const log = pino(${options}); log.info({ reqId: 'req-1' }, 'incoming request'); log.flush?.();`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  return run.stdout;
}

describe('log format (issue 16)', () => {
  it('is readable at a terminal and JSON when piped, in production, or when LOG_FORMAT says so', () => {
    expect(loadConfig(env, { stdoutIsTTY: true }).logFormat).toBe('pretty');
    expect(loadConfig(env, { stdoutIsTTY: false }).logFormat).toBe('json');
    expect(loadConfig({ ...env, NODE_ENV: 'production' }, { stdoutIsTTY: true }).logFormat).toBe('json');
    expect(loadConfig({ ...env, LOG_FORMAT: 'json' }, { stdoutIsTTY: true }).logFormat).toBe('json');
    expect(loadConfig({ ...env, LOG_FORMAT: 'pretty' }, { stdoutIsTTY: false }).logFormat).toBe('pretty');
    expect(() => loadConfig({ ...env, LOG_FORMAT: 'xml' })).toThrow('Invalid LOG_FORMAT: xml (use pretty or json)');
  });

  it('prints a pretty line (level word, message, no JSON braces) or one JSON object', () => {
    const pretty = logLine('pretty');
    expect(pretty).toContain('INFO');
    expect(pretty).toContain('incoming request');
    expect(pretty).not.toContain('"level"');
    const json = JSON.parse(logLine('json').trim());
    expect(json).toMatchObject({ level: 30, msg: 'incoming request', reqId: 'req-1' });
  });
});
