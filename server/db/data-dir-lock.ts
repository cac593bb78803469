import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * One portal process per DATA_DIR when the portal runs its own database (decision 013): a second `npm start`, an
 * overlapping restart or a script on the same folder would otherwise write beside the first. The lock file holds the
 * owner's pid; a lock whose process is gone (kill -9, power cut) is stale and taken over.
 */
export class DataDirLockedError extends Error {}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the lock on `dataDir` or throws DataDirLockedError naming the process that holds it. Returns the release. */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'portal.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n${new Date().toISOString()}\n`);
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (Number(readFileSync(file, 'utf8').split('\n')[0]) === process.pid) rmSync(file, { force: true });
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let holder = 0;
      try {
        holder = Number(readFileSync(file, 'utf8').split('\n')[0]);
      } catch {
        // removed meanwhile: try again
      }
      if (holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(
          `Another portal process (pid ${holder}) is already running on DATA_DIR ${dataDir}. ` +
            'Stop it first, or give this one its own DATA_DIR. Nothing was changed.',
        );
      }
      rmSync(file, { force: true }); // stale: its owner is gone
    }
  }
  throw new DataDirLockedError(`Could not lock DATA_DIR ${dataDir}: ${file} keeps coming back. Nothing was changed.`);
}
