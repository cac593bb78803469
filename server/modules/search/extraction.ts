import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { and, eq, sql } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { fileTexts } from '#server/db/schema/index.ts';
import { storedFileById } from '#server/modules/files/files.queries.ts';
import type { FileStore } from '#server/modules/files/storage.ts';

import { EXTRACTABLE, TextExtractor } from './extractor.ts';

/**
 * Extraction of the text inside uploaded files (decision 015). The database marks each stored file of an extractable
 * type 'pending' (migration search_custom); the background job (search.jobs.ts) calls `extractFileText` for each, and
 * the text reaches search_documents by trigger. Tests call the same functions directly.
 */
export type ExtractionOutcome = 'done' | 'failed' | 'skipped';

let shared: TextExtractor | undefined;
/** The process's extractor, made on first use (with the sandbox's bwrap, BWRAP_PATH: decision 091). */
export const sharedExtractor = (bwrap?: string) => (shared ??= new TextExtractor(undefined, bwrap));

/** Reads one pending file and stores its text (or why it could not be read). A file already read is skipped. */
export async function extractFileText(
  db: DbOrTx,
  store: FileStore,
  fileId: string,
  extractor: TextExtractor = sharedExtractor(),
): Promise<ExtractionOutcome> {
  const [pending] = await db
    .select({ fileId: fileTexts.fileId })
    .from(fileTexts)
    .where(and(eq(fileTexts.fileId, fileId), eq(fileTexts.status, 'pending')))
    .limit(1);
  // the file itself through the files module (decision 103)
  const row = pending ? await storedFileById(db, fileId) : undefined;
  if (!row) return 'skipped';
  const ext = path.extname(row.originalName).slice(1).toLowerCase();
  let update: { status: 'done' | 'failed'; text: string; error: string | null };
  if (!(EXTRACTABLE as readonly string[]).includes(ext)) {
    update = { status: 'failed', text: '', error: `.${ext} files are not read.` };
  } else {
    let copy: string | undefined;
    try {
      // The local driver reads in place; an object store's file is copied to a temporary file for the extractor.
      const driver = store.driver;
      let file = driver.localPath?.(row.area, row.storedName);
      if (!file) {
        const body = await driver.read(row.area, row.storedName);
        if (!body) throw new Error('The stored file is missing.');
        copy = path.join(await mkdtemp(path.join(os.tmpdir(), 'lp-extract-')), `file.${ext}`);
        await pipeline(body, createWriteStream(copy));
        file = copy;
      }
      const text = await extractor.extract(file, ext);
      update = { status: 'done', text, error: null };
    } catch (err) {
      update = { status: 'failed', text: '', error: (err as Error).message };
    } finally {
      if (copy) await rm(path.dirname(copy), { recursive: true, force: true });
    }
  }
  // Only a row still pending is written: a file deleted meanwhile has no row left to update.
  const written = await db
    .update(fileTexts)
    .set({ ...update, updatedAt: sql`now()` })
    .where(and(eq(fileTexts.fileId, fileId), eq(fileTexts.status, 'pending')))
    .returning({ fileId: fileTexts.fileId });
  return written.length ? update.status : 'skipped';
}

/** Ids of files still waiting for extraction, oldest first. */
export async function pendingFileIds(db: DbOrTx, limit = 1000): Promise<string[]> {
  const rows = await db
    .select({ fileId: fileTexts.fileId })
    .from(fileTexts)
    .where(eq(fileTexts.status, 'pending'))
    .orderBy(fileTexts.updatedAt)
    .limit(limit);
  return rows.map((r) => r.fileId);
}

/** Reads every pending file now, one after another (tests, and the bench's throughput figure). */
export async function extractPendingFiles(
  db: DbOrTx,
  store: FileStore,
  extractor: TextExtractor = sharedExtractor(),
): Promise<Record<ExtractionOutcome, number>> {
  const tally: Record<ExtractionOutcome, number> = { done: 0, failed: 0, skipped: 0 };
  for (const id of await pendingFileIds(db, 100_000)) tally[await extractFileText(db, store, id, extractor)]++;
  return tally;
}
