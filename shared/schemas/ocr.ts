import { z } from 'zod';

import { OCR_FAILURES } from '../constants.ts';

/** The most failed scans GET /api/admin/ocr lists, newest first (the count says how many in all). */
export const OCR_FAILED_LISTED = 100;

/** A scan whose text was not recognised: its file's name, where it was uploaded, why, and when it was given up. */
export const ocrFailedJson = z.object({
  fileId: z.uuid(),
  name: z.string(),
  area: z.string(),
  reason: z.enum(OCR_FAILURES),
  detail: z.string(),
  at: z.string(),
});
export type OcrFailedJson = z.infer<typeof ocrFailedJson>;

/** Scans waiting for OCR and scans whose text was not recognised (GET /api/admin/ocr, decision 113). */
export const ocrCountsJson = z.object({
  waiting: z.number().int(),
  failed: z.number().int(),
  failedFiles: z.array(ocrFailedJson),
});
export type OcrCountsJson = z.infer<typeof ocrCountsJson>;

/** The failed scans queued again (POST /api/admin/ocr/retry). */
export const ocrRetriedJson = z.object({ queued: z.number().int() });
