import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { Worker } from 'node:worker_threads';

import type { NoteBody } from '#shared/schemas/efile-note.ts';

import type { Db } from '#server/db/client.ts';
import type { EfileDraftRow, EfileDraftVersionRow, EfileRow } from '#server/db/schema/index.ts';
import { AppError, conflict } from '#server/lib/errors.ts';
import { projectRoot } from '#server/lib/project-root.ts';
import { fileRowsByIds } from '#server/modules/files/files.queries.ts';
import { previewOf, previewState } from '#server/modules/files/previews.ts';
import type { FileStore } from '#server/modules/files/storage.ts';

/**
 * A version of a draft for approval as a PDF (decision 122): rich text drawn in a worker thread of its own
 * (efile-draft.worker.mjs, with the export's layout and Devanagari fonts, decision 111) under a time and memory limit,
 * an uploaded PDF as it is, a .docx as the PDF copy the previews' LibreOffice made of it in the sandbox (decision 084).
 */
export interface DraftPdfLimits {
  timeoutMs: number;
  memoryMb: number;
}

interface DrawJob {
  file: { number: string; subject: string };
  title: string;
  ref: string;
  version: number;
  body: NoteBody;
}

/** The rich text of a draft drawn as a PDF, by a thread ended when it passes `limits` (422 drafts.unsignable). */
export function drawDraftPdf(job: DrawJob, limits: DraftPdfLimits): Promise<Uint8Array> {
  const worker = new Worker(path.join(projectRoot, 'server', 'modules', 'efiles', 'efile-draft.worker.mjs'), {
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
  });
  return new Promise((resolve, reject) => {
    const done = (fn: () => void) => {
      clearTimeout(timer);
      worker.removeAllListeners();
      void worker.terminate();
      fn();
    };
    const tooHeavy = () => new AppError(422, 'efiles.export_too_heavy');
    const timer = setTimeout(() => done(() => reject(tooHeavy())), limits.timeoutMs);
    worker.on('message', (m: { pdf?: Uint8Array; error?: string }) =>
      done(() => (m.pdf ? resolve(m.pdf) : reject(new Error(`drawing a draft failed: ${m.error}`)))),
    );
    worker.on('error', (err: Error & { code?: string }) =>
      done(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooHeavy() : err)),
    );
    worker.on('exit', () => done(() => reject(new Error('the drawing thread ended without an answer'))));
  });
}

/**
 * The PDF of one version: drawn, stored, or the .docx's PDF copy (409 drafts.pdf_not_ready while the conversion is
 * pending, drafts.pdf_unavailable when LibreOffice could not make it).
 */
export async function versionPdf(
  db: Db,
  store: FileStore,
  limits: DraftPdfLimits,
  file: Pick<EfileRow, 'number' | 'subject'>,
  draft: Pick<EfileDraftRow, 'seq' | 'title'>,
  version: EfileDraftVersionRow,
): Promise<Uint8Array> {
  if (version.kind === 'text') {
    return drawDraftPdf(
      {
        file: { number: file.number, subject: file.subject },
        title: draft.title,
        ref: `D/${draft.seq}`,
        version: version.version,
        body: version.body!,
      },
      limits,
    );
  }
  const [row] = await fileRowsByIds(db, [version.fileId!]);
  if (!row) throw conflict('drafts.pdf_unavailable');
  const pdf = version.kind === 'pdf' ? row : await previewOf(db, row, 'pdf');
  if (!pdf) {
    const state = await previewState(db, row);
    throw conflict(state.status === 'pending' ? 'drafts.pdf_not_ready' : 'drafts.pdf_unavailable');
  }
  const stream = await store.driver.read(pdf.area, pdf.storedName);
  if (!stream) throw conflict('drafts.pdf_unavailable');
  return new Uint8Array(await buffer(stream));
}
