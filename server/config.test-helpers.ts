import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, expect } from 'vitest';

import { ConfigError, loadConfig } from './config.ts';

/** A data folder of its own for a config test file (removed after it), `load` and `refusal` over it. */
export function configLoader() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const base = { DATA_DIR: dataDir, JWT_SECRET: 'config-secret-config-secret-config' };
  const load = (env: Record<string, string>) => loadConfig({ ...base, ...env }, { stdoutIsTTY: false });

  /** The ConfigError message loadConfig throws for `env`. */
  function refusal(env: Record<string, string>): string {
    try {
      load(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error(`accepted ${JSON.stringify(env)}`);
  }
  return { base, dataDir, load, refusal };
}
