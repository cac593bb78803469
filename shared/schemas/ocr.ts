import { z } from 'zod';

/** Scans waiting for OCR and scans whose text was not recognised (GET /api/admin/ocr, decision 113). */
export const ocrCountsJson = z.object({ waiting: z.number().int(), failed: z.number().int() });
export type OcrCountsJson = z.infer<typeof ocrCountsJson>;

/** The failed scans queued again (POST /api/admin/ocr/retry). */
export const ocrRetriedJson = z.object({ queued: z.number().int() });
