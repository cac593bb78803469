import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

import type { FastifyInstance } from 'fastify';

import { files } from '#server/db/schema/index.ts';

export interface SweepResult {
  /** Stored files that no row referenced and that were removed. */
  removed: number;
  /** Unreferenced files kept because they are younger than the grace period (another node may be mid-upload). */
  kept: number;
  /** Rows whose bytes are missing (reported, never deleted: the record stays and says so on download). */
  missing: { area: string; id: string }[];
}

/**
 * Reconciles the storage driver (DATA_DIR/uploads or the S3 bucket) with the `files` table (decisions 013, 017): a
 * crash between storing an upload's bytes and committing its row, or between a delete's commit and the removal of the
 * bytes, leaves a file that nothing references. Such files older than `graceMs` are removed (on shared storage another
 * node may be between the two steps right now); rows that point at missing files are logged. Staging copies in
 * DATA_DIR/incoming older than the grace period (a crash mid-request) go too.
 */
export async function sweepStorage(app: FastifyInstance, opts: { graceMs: number }): Promise<SweepResult> {
  const driver = app.storage.driver;
  const rows = await app.db.select({ area: files.area, id: files.storedName }).from(files);
  const known = new Set(rows.map((r) => `${r.area}/${r.id}`));
  const result: SweepResult = { removed: 0, kept: 0, missing: [] };
  const present = new Set<string>();
  const cutoff = Date.now() - opts.graceMs;
  for await (const object of driver.list()) {
    const key = `${object.area}/${object.id}`;
    present.add(key);
    if (known.has(key)) continue;
    if (object.modified.getTime() > cutoff) {
      result.kept++;
      continue;
    }
    await driver.delete(object.area, object.id);
    result.removed++;
  }
  for (const r of rows) if (!present.has(`${r.area}/${r.id}`)) result.missing.push(r);
  await sweepStaging(app.storage.stagingDir, cutoff);
  if (result.removed || result.kept) {
    app.log.warn(
      { removed: result.removed, kept: result.kept, storage: driver.description },
      'storage sweep: removed files that no record references',
    );
  }
  if (result.missing.length) {
    app.log.error(
      { count: result.missing.length, first: result.missing.slice(0, 20), storage: driver.description },
      'storage sweep: records point at files that are missing from storage',
    );
  }
  return result;
}

/** Staging copies (DATA_DIR/incoming/<area>/<id>) left by a request that never ended. */
async function sweepStaging(root: string, cutoff: number) {
  const areas = await readdir(root).catch(() => [] as string[]);
  for (const area of areas) {
    const names = await readdir(path.join(root, area)).catch(() => [] as string[]);
    for (const name of names) {
      const file = path.join(root, area, name);
      const info = await stat(file).catch(() => null);
      if (info?.isFile() && info.mtimeMs <= cutoff) await rm(file, { force: true });
    }
  }
}
