import { z } from 'zod';

import { byteSize, MB, refuse, text, variable, wholeNumber } from './variables.ts';

/**
 * Text recognised in scans (decision 113): the languages Tesseract reads (OCR_LANGUAGES, `eng+hin`), how many scans a
 * node reads at once (OCR_CONCURRENCY, 1), the largest scan read (OCR_MAX_PAGES, OCR_MAX_BYTES), how long one may take
 * (OCR_TIMEOUT_SECONDS) and where ocrmypdf is (OCRMYPDF_PATH, on the PATH by default).
 */

const LANGUAGES = /^[a-z_]{3,}(\+[a-z_]{3,})*$/;

export const ocrEnv = z.object({
  OCR_LANGUAGES: variable((v, ctx) => {
    if (v === undefined) return 'eng+hin';
    if (LANGUAGES.test(v.trim())) return v.trim();
    return refuse(ctx, `OCR_LANGUAGES must be Tesseract language codes joined by + (e.g. eng+hin; got "${v}").`);
  }),
  OCR_CONCURRENCY: wholeNumber('OCR_CONCURRENCY', 1, 1, 64),
  OCR_MAX_PAGES: wholeNumber('OCR_MAX_PAGES', 200, 1, 100_000),
  OCR_MAX_BYTES: byteSize('OCR_MAX_BYTES', 50 * MB),
  OCR_TIMEOUT_SECONDS: wholeNumber('OCR_TIMEOUT_SECONDS', 1800, 1, 4 * 3600),
  OCRMYPDF_PATH: text('ocrmypdf'),
});

export interface OcrConfig {
  languages: string;
  concurrency: number;
  maxPages: number;
  maxBytes: number;
  timeoutSeconds: number;
  program: string;
}

export const ocrConfig = (env: z.infer<typeof ocrEnv>): OcrConfig => ({
  languages: env.OCR_LANGUAGES,
  concurrency: env.OCR_CONCURRENCY,
  maxPages: env.OCR_MAX_PAGES,
  maxBytes: env.OCR_MAX_BYTES,
  timeoutSeconds: env.OCR_TIMEOUT_SECONDS,
  program: env.OCRMYPDF_PATH ?? 'ocrmypdf',
});
