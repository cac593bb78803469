import type { FastifyBaseLogger } from 'fastify';

import type { LdapConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';

import { checkDirectoryAccounts } from './directory-accounts.ts';

export interface DirectoryCheck {
  /** Runs one round now (tests), after any round under way. */
  runNow(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The directory check (decision 062): every LDAP_CHECK_SECONDS (30 by default) this node claims the directory accounts
 * with a live session that no node checked for that long, and asks the directory about them again, so a person
 * disabled or taken out of their groups there is signed out within a minute. A timer on every node rather than a
 * pg-boss schedule (whose cron runs at most once a minute, and only where the job queue runs); the claim in
 * checkDirectoryAccounts is what keeps several nodes from asking twice. A round that fails (the directory down) is
 * logged and tried again at the next tick; rounds never overlap.
 */
export function startDirectoryCheck(db: Db, config: LdapConfig, log: FastifyBaseLogger): DirectoryCheck {
  let running: Promise<number> = Promise.resolve(0);
  let stopped = false;
  const round = () => {
    running = running.then(async () => {
      if (stopped) return 0;
      try {
        return await checkDirectoryAccounts(db, config);
      } catch (err) {
        log.warn({ err }, 'directory check failed; trying again at the next round');
        return 0;
      }
    });
    return running;
  };
  const timer = setInterval(() => void round(), config.checkSeconds * 1000);
  timer.unref();
  return {
    runNow: round,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
