import { createReadStream, type ReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

import type { StorageDriver, StoredObject } from './types.ts';

/**
 * The local disk: DATA_DIR/uploads/<area>/<id>. Also right for several nodes that mount one network file system at
 * DATA_DIR (NFS, CephFS, SMB): every node sees every file, a file is complete before its row commits (the upload is
 * written in place and checked before the transaction), and a delete is a single unlink.
 */
export function localDriver(uploadsRoot: string): StorageDriver {
  const localPath = (area: string, id: string) => path.join(uploadsRoot, area, id);
  return {
    kind: 'local',
    description: uploadsRoot,
    localPath,
    async put(area, id, source) {
      const target = localPath(area, id);
      if (path.resolve(source) === target) return;
      await mkdir(path.dirname(target), { recursive: true });
      try {
        await rename(source, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        await copyFile(source, target); // another file system (a restore's staging folder elsewhere)
        await rm(source, { force: true });
      }
    },
    // Downloads are served by @fastify/static from localPath (files.routes.ts, decision 022); this is for the portal's
    // own readers (backup, text extraction for search).
    read: (area, id) => opened(createReadStream(localPath(area, id))),
    // For the viewer's PDF, a PDF read with its update after it (decision 088), which @fastify/static cannot serve.
    readRange: (area, id, { start, end }) => opened(createReadStream(localPath(area, id), { start, end })),
    async delete(area, id) {
      await rm(localPath(area, id), { force: true });
    },
    async *list(): AsyncIterable<StoredObject> {
      let areas: string[];
      try {
        areas = await readdir(uploadsRoot);
      } catch {
        return; // no uploads yet
      }
      for (const area of areas) {
        let names: string[];
        try {
          names = await readdir(path.join(uploadsRoot, area));
        } catch {
          continue; // not a folder
        }
        for (const id of names) {
          const info = await stat(path.join(uploadsRoot, area, id)).catch(() => null);
          if (info?.isFile()) yield { area, id, size: info.size, modified: info.mtime };
        }
      }
    },
    async close() {},
  };
}

/** Open first, so a missing file is a null here rather than an error half-way through a response. */
function opened(stream: ReadStream): Promise<Readable | null> {
  return new Promise((resolve) => {
    stream.once('open', () => resolve(stream));
    stream.once('error', () => resolve(null));
  });
}
