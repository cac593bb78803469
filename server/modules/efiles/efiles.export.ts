import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { Worker } from 'node:worker_threads';

import { formatDate } from '#shared/format.ts';

import type { Db } from '#server/db/client.ts';
import type { EfileItemRow, EfileRow, FileRow } from '#server/db/schema/index.ts';
import { projectRoot } from '#server/lib/project-root.ts';
import { RECORDED_LETTER_CLASSIFICATIONS, type RecordedItem } from '#server/modules/audit-trail/classified-reads.ts';
import { fileRowsByIds } from '#server/modules/files/files.queries.ts';
import { previewKind, previewOf } from '#server/modules/files/previews.ts';
import type { FileStore } from '#server/modules/files/storage.ts';
import { lettersPolicy } from '#server/modules/letters/letters.policy.ts';
import { loadViews } from '#server/modules/letters/letters.register.views.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { type ExportLanguage, type ExportTexts, exportTexts } from './efiles.export-texts.ts';
import { efilesPolicy } from './efiles.policy.ts';
import { loadPages } from './efiles.service.ts';

/**
 * The export of an e-file as one PDF (decision 111): what goes in it, gathered here — the notes as their structure, each
 * correspondence item's PDF (a PDF as uploaded, an Office document's PDF copy, a picture), or why it is left out —
 * and the PDF made in a worker thread of its own (efile-export.worker.mjs) under a time and memory limit, so that
 * uploaded PDFs are read by pdf-lib off the server's main thread, as the watermark reads them (decision 096).
 */

/** An item as the export's thread gets it: its pages' source, or the reason it has none. */
export interface ExportItem {
  ref: string;
  title: string;
  pdf?: ArrayBuffer;
  image?: { bytes: ArrayBuffer; type: 'png' | 'jpeg' };
  missing?: string;
}

export interface ExportJob {
  /** The stand-in pages' words, in the reader's language (the worker draws the unreadable ones'). */
  texts: ExportTexts;
  file: { number: string; subject: string; classification: string; head: string };
  notes: { ref: string; body: unknown; author: string; designation: string; date: string; permanent: boolean }[];
  items: ExportItem[];
}

export interface ExportLimits {
  timeoutMs: number;
  memoryMb: number;
}

/** The export took longer than its limit, or more memory than its thread has: refused (422 efiles.export_too_heavy). */
export class ExportTooHeavy extends Error {}

/** A copy of the bytes in an ArrayBuffer of their own (a stream's buffer may be a slice of a shared pool). */
const ownBuffer = (bytes: Buffer): ArrayBuffer => new Uint8Array(bytes).buffer;

/** Reads an item's stored file as the export takes it: its PDF (or its PDF copy), or a picture. */
async function sourceOf(
  db: Db,
  store: FileStore,
  file: FileRow | undefined,
  says: ExportTexts,
): Promise<Partial<ExportItem>> {
  if (!file) return { missing: says.lost };
  const kind = previewKind(file.originalName);
  const ext = path.extname(file.originalName).toLowerCase();
  const picture = kind === 'image' && ['.png', '.jpg', '.jpeg'].includes(ext);
  if (kind !== 'pdf' && kind !== 'office' && !picture) return { missing: says.notPdf };
  const sent = picture ? file : await previewOf(db, file, 'pdf');
  if (!sent) return { missing: says.notReady };
  const stream = await store.driver.read(sent.area, sent.storedName).catch(() => null);
  if (!stream) return { missing: says.lost };
  const bytes = ownBuffer(await buffer(stream));
  return picture ? { image: { bytes, type: ext === '.png' ? 'png' : 'jpeg' } } : { pdf: bytes };
}

/**
 * What the export of `file` holds for `actor`: the job for the thread, and the classified letters it shows (each
 * recorded in the audit trail, decision 070). A Secret letter needs the step-up as its opening does (decision 095);
 * a letter the actor may not see is left out (efiles.export_letter).
 */
export async function gatherExport(
  db: Db,
  store: FileStore,
  actor: Actor,
  file: EfileRow,
  headName: string,
  language: ExportLanguage = 'en',
): Promise<{ job: ExportJob; letters: RecordedItem[] }> {
  const says = exportTexts(language);
  const { notes, items } = await loadPages(db, file.id);
  const views = new Map(
    (
      await loadViews(
        db,
        items.flatMap((i) => (i.letterId ? [i.letterId] : [])),
      )
    ).map((v) => [v.letter.id, v]),
  );
  const letters: RecordedItem[] = [];
  const fileIdOf = new Map<EfileItemRow, string>();
  const refused = new Map<EfileItemRow, string>();
  for (const item of items) {
    const view = item.letterId ? views.get(item.letterId) : undefined;
    if (item.fileId) fileIdOf.set(item, item.fileId);
    if (!item.letterId) continue;
    if (!view) {
      refused.set(item, says.gone);
      continue;
    }
    if (!efilesPolicy.allows(actor, 'efiles.export_letter', { letter: view.letter })) {
      refused.set(item, says.refused);
      continue;
    }
    lettersPolicy.authorize(actor, 'letters.open', { letter: view.letter });
    if (!view.letter.fileId) refused.set(item, says.noFile);
    else fileIdOf.set(item, view.letter.fileId);
    if (RECORDED_LETTER_CLASSIFICATIONS.includes(view.letter.classification)) {
      letters.push({
        object: { type: 'letter', id: view.letter.id, label: view.letter.letterId },
        classification: view.letter.classification,
      });
    }
  }
  const rows = new Map((await fileRowsByIds(db, [...fileIdOf.values()])).map((f) => [f.id, f]));
  const exportItems: ExportItem[] = [];
  // Read a few at a time: a file of hundreds of items must not open hundreds of files at once.
  for (let at = 0; at < items.length; at += 16) {
    const batch = items.slice(at, at + 16);
    const sources = await Promise.all(
      batch.map((item) => {
        const reason = refused.get(item);
        if (reason) return { missing: reason };
        const id = fileIdOf.get(item);
        return id ? sourceOf(db, store, rows.get(id), says) : Promise.resolve({ missing: says.lost });
      }),
    );
    batch.forEach((item, i) => exportItems.push({ ref: `C/${item.seq}`, title: item.title, ...sources[i] }));
  }
  return {
    job: {
      texts: says,
      file: { number: file.number, subject: file.subject, classification: file.classification, head: headName },
      notes: notes.map((n) => ({
        ref: `N/${n.seq}`,
        body: n.body,
        author: n.authorName,
        designation: n.authorDesignation,
        date: formatDate(n.createdAt),
        permanent: n.permanent,
      })),
      items: exportItems,
    },
    letters,
  };
}

/** The export's PDF, made by a thread of its own, ended when it passes `limits` (ExportTooHeavy). */
export function makeExportPdf(job: ExportJob, limits: ExportLimits): Promise<{ pdf: Uint8Array; pages: number }> {
  const transferList = job.items.flatMap((i) => (i.pdf ? [i.pdf] : i.image ? [i.image.bytes] : []));
  const worker = new Worker(path.join(projectRoot, 'server', 'modules', 'efiles', 'efile-export.worker.mjs'), {
    workerData: job,
    transferList,
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
  });
  return new Promise((resolve, reject) => {
    const done = (fn: () => void) => {
      clearTimeout(timer);
      worker.removeAllListeners();
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () => done(() => reject(new ExportTooHeavy(`it took longer than ${limits.timeoutMs / 1000} s`))),
      limits.timeoutMs,
    );
    worker.on('message', (m: { pdf?: Uint8Array; pages?: number; error?: string }) =>
      done(() =>
        m.pdf ? resolve({ pdf: m.pdf, pages: m.pages ?? 0 }) : reject(new Error(`export failed: ${m.error}`)),
      ),
    );
    worker.on('error', (err: Error & { code?: string }) =>
      done(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ExportTooHeavy(`it needed more than ${limits.memoryMb} MB`)
            : err,
        ),
      ),
    );
    worker.on('exit', () => done(() => reject(new Error('the export thread ended without an answer'))));
  });
}
