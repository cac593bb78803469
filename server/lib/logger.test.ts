import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

describe('log files in DATA_DIR/logs (decision 125)', () => {
  it('the server log goes to a dated file as JSON lines, as well as to stdout', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-logs-'));
    try {
      const options = JSON.stringify(
        loggerOptions({ logLevel: 'info', logFormat: 'json', dataDir, logRetentionDays: 180 }),
      );
      const script = `const pino = require('pino'); const log = pino(${options}); log.info({ reqId: 'req-9' }, 'kept in a file'); log.warn('and a warning');`;
      const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('kept in a file');
      const files = readdirSync(path.join(dataDir, 'logs')).filter((f) => f.endsWith('.log'));
      const today = new Date().toISOString().slice(0, 10);
      expect(files).toEqual([expect.stringMatching(new RegExp(`^portal\\.${today}\\.1\\.log$`))]);
      const lines = readFileSync(path.join(dataDir, 'logs', files[0]!), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toMatchObject([
        { level: 30, msg: 'kept in a file', reqId: 'req-9' },
        { level: 40, msg: 'and a warning' },
      ]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('LOG_RETENTION_DAYS is 180 unless set, and less than 180 is refused at start', () => {
    expect(loadConfig(env).logRetentionDays).toBe(180);
    expect(loadConfig({ ...env, LOG_RETENTION_DAYS: '400' }).logRetentionDays).toBe(400);
    expect(() => loadConfig({ ...env, LOG_RETENTION_DAYS: '30' })).toThrow(
      'LOG_RETENTION_DAYS must be a whole number from 180 to 3650 (got "30").',
    );
  });
});
