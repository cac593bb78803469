import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import type { OcrFailure } from '#shared/constants.ts';

import type { Config } from '#server/config.ts';
import {
  ProgramMissing,
  runSandboxed,
  SandboxFailed,
  SandboxLimitError,
  type SandboxLimits,
} from '#server/lib/sandbox.ts';

/**
 * The tools that recognise a scan's text (decision 113), each run in the sandbox (server/lib/sandbox.ts, decision 091)
 * on the one file it reads, at the lowest priority: poppler's pdfinfo counts a PDF's pages and tells an encrypted one;
 * Debian's ocrmypdf (Tesseract underneath) writes the searchable copy (the scan with a text layer) and the text.
 */

export type OcrToolConfig = Pick<Config, 'ocr' | 'sandbox'>;

/** Why a scan's text was not recognised: `reason` is kept in `file_ocr` and worded by the screens, `message` too. */
export class NotRecognised extends Error {
  constructor(
    readonly reason: OcrFailure,
    message: string,
  ) {
    super(message);
  }
}

const limitsOf = ({ ocr, sandbox }: OcrToolConfig): SandboxLimits => ({
  // One Tesseract at a time per run (OMP_THREAD_LIMIT=1, --jobs 1): its CPU time is at most its wall clock.
  cpuSeconds: ocr.timeoutSeconds,
  memoryMb: sandbox.memoryMb,
  wallSeconds: ocr.timeoutSeconds,
});

/** Turns a sandbox's refusal into the reason the file shows. */
function failure(err: unknown, config: OcrToolConfig, program: string): never {
  if (err instanceof ProgramMissing) throw new NotRecognised('ocr_missing', `${program} is not installed`);
  if (err instanceof SandboxLimitError && (err.limit === 'time' || err.limit === 'cpu')) {
    throw new NotRecognised('timed_out', `took longer than OCR_TIMEOUT_SECONDS (${config.ocr.timeoutSeconds} s)`);
  }
  if (err instanceof SandboxLimitError) throw new NotRecognised('unreadable', `${program} ${err.message}`);
  if (err instanceof SandboxFailed) {
    if (/encrypt|password/i.test(err.stderr)) throw new NotRecognised('encrypted', 'the PDF is encrypted');
    throw new NotRecognised('unreadable', err.message.slice(0, 500));
  }
  throw err;
}

/** A PDF's page count (pdfinfo); an encrypted PDF is refused here, before any page is drawn. */
export async function pdfPages(file: string, work: string, config: OcrToolConfig): Promise<number> {
  const out = path.join(work, 'info');
  await mkdir(out, { recursive: true });
  const { stdout } = await runSandboxed(config.sandbox.bwrap, {
    program: 'pdfinfo',
    args: ({ input }) => [input],
    input: file,
    inputName: 'scan.pdf',
    outputDir: out,
    limits: { ...limitsOf(config), wallSeconds: Math.min(60, config.ocr.timeoutSeconds) },
    background: true,
  }).catch((err: unknown) => failure(err, config, 'pdfinfo'));
  if (/^Encrypted:\s+yes/m.test(stdout)) throw new NotRecognised('encrypted', 'the PDF is encrypted');
  const pages = /^Pages:\s+(\d+)/m.exec(stdout);
  if (!pages) throw new NotRecognised('unreadable', 'pdfinfo found no pages');
  return Number(pages[1]);
}

/** What ocrmypdf made of a scan: the searchable copy and the text of the pages it read. */
export interface Recognised {
  /** The searchable copy (host path), or null when no page needed reading. */
  pdf: string | null;
  text: string;
}

/** ocrmypdf's note in its text for a page that had text of its own and was not read. */
const SKIPPED = /\[OCR skipped on page\(s\) [\d-]+\]/g;

/**
 * Runs ocrmypdf on one PDF or image: the pages that carry text of their own are left as they are (--skip-text); the
 * others are cleaned of specks for Tesseract alone (--clean: unpaper, the copy keeps the scan as it came) and read in
 * OCR_LANGUAGES. One Tesseract thread, a plain PDF out (no PDF/A: Ghostscript would redraw every page).
 */
export async function recognise(
  file: string,
  inputName: string,
  work: string,
  config: OcrToolConfig,
): Promise<Recognised> {
  const out = path.join(work, 'ocr');
  await mkdir(out, { recursive: true });
  await runSandboxed(config.sandbox.bwrap, {
    program: config.ocr.program,
    args: ({ input, output }) => [
      '--language',
      config.ocr.languages,
      '--skip-text',
      '--clean',
      '--output-type',
      'pdf',
      '--optimize',
      '0',
      '--jobs',
      '1',
      '--quiet',
      // A scanned image without its resolution is taken as 300 dpi, a scanner's usual.
      ...(inputName.endsWith('.pdf') ? [] : ['--image-dpi', '300']),
      '--sidecar',
      `${output}/text.txt`,
      input,
      `${output}/searchable.pdf`,
    ],
    input: file,
    inputName,
    outputDir: out,
    limits: limitsOf(config),
    env: { OMP_THREAD_LIMIT: '1' },
    background: true,
  }).catch((err: unknown) => failure(err, config, config.ocr.program));
  const sidecar = await readFile(path.join(out, 'text.txt'), 'utf8').catch(() => '');
  const skipped = SKIPPED.test(sidecar);
  // Pages stay apart by ocrmypdf's form feeds (white space to the search).
  const text = sidecar.replace(SKIPPED, '').trim();
  return { pdf: skipped && !text ? null : path.join(out, 'searchable.pdf'), text };
}
