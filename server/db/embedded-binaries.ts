import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
} from 'node:fs';
import path from 'node:path';

import { EmbeddedDatabaseError, type Owner, RELOCATED_ROOT } from './embedded-location.ts';

/** The PostgreSQL programs the portal runs: `bin/postgres` and `bin/initdb` of one `native/` folder. */
export interface Binaries {
  postgres: string;
  initdb: string;
}

/** Where copies of the programs go when `postgres` cannot reach them in node_modules (decision 040, its 2026-12 part). */
export const BINARIES_ROOT = path.join(RELOCATED_ROOT, 'bin');

/** Can the system user `owner` run this program (every folder above it passable, the file executable)? */
const canRun = (file: string, owner: Owner) => spawnSync('test', ['-x', file], { ...owner }).status === 0;

/**
 * A checksum of a folder: each entry's path, kind and content (a symbolic link's target; a file's bytes and whether it
 * is executable), in name order. The folder's name in BINARIES_ROOT, and the check that a copy there is whole.
 */
export function folderChecksum(root: string): string {
  const hash = createHash('sha256');
  const walk = (rel: string) => {
    const names = readdirSync(path.join(root, rel)).sort();
    for (const name of names) {
      const entry = path.join(rel, name);
      const full = path.join(root, entry);
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) hash.update(`L ${entry} -> ${readlinkSync(full)}\n`);
      else if (stat.isDirectory()) {
        hash.update(`D ${entry}\n`);
        walk(entry);
      } else {
        hash.update(`F ${entry} ${stat.mode & 0o111 ? 'x' : '-'} ${stat.size}\n`);
        hash.update(readFileSync(full));
      }
    }
  };
  walk('');
  return hash.digest('hex');
}

/** Every folder readable and passable, every file readable, by everyone; programs stay executable. Owned by root. */
function openToAll(dir: string) {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) openToAll(full);
    else chmodSync(full, lstatSync(full).mode & 0o111 ? 0o755 : 0o644);
  }
}

/**
 * The programs as the system user `postgres` can run them. Not as root, or where that user reaches node_modules: the
 * package's own. Else (a clone in root's home, mode 700: decision 040) the package's `native/` folder is copied
 * once to BINARIES_ROOT/<first 16 hex of its checksum>/, owned by root and readable by all, and run from there; a copy
 * already there is used when its checksum matches, and made again when it does not (an interrupted copy, a change).
 * The copy is made beside it and renamed into place, so a start never sees half of it. Where even that cannot be done,
 * one line says what to do.
 */
export function reachableBinaries(bin: Binaries, owner: Owner | undefined): Binaries {
  if (!owner || (canRun(bin.initdb, owner) && canRun(bin.postgres, owner))) return bin;
  const native = path.dirname(path.dirname(bin.postgres));
  const relative = (file: string) => path.relative(native, file);
  try {
    const sum = folderChecksum(native);
    const target = path.join(BINARIES_ROOT, sum.slice(0, 16));
    if (!existsSync(target) || folderChecksum(target) !== sum) {
      mkdirSync(BINARIES_ROOT, { recursive: true, mode: 0o755 });
      chmodSync(RELOCATED_ROOT, 0o755);
      chmodSync(BINARIES_ROOT, 0o755);
      const staging = `${target}.${process.pid}.tmp`;
      rmSync(staging, { recursive: true, force: true });
      cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
      openToAll(staging);
      if (folderChecksum(staging) !== sum) throw new Error('the copy differs from its source');
      rmSync(target, { recursive: true, force: true });
      renameSync(staging, target);
    }
    const copied = {
      postgres: path.join(target, relative(bin.postgres)),
      initdb: path.join(target, relative(bin.initdb)),
    };
    if (!canRun(copied.initdb, owner) || !canRun(copied.postgres, owner)) throw new Error(`"postgres" cannot run them`);
    return copied;
  } catch (err) {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL runs as the system user "postgres", which cannot reach its programs in ${native} (a parent folder is closed to other users), and they could not be copied to ${BINARIES_ROOT} (${(err as Error).message}). Open the folders above them to others (chmod o+x), clone the portal where other users can pass, or run it as an ordinary user.`,
    );
  }
}
