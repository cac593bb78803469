import { z } from 'zod';

import { byteSize, MB, text, wholeNumber } from './variables.ts';

/**
 * Uploaded files (docs/decisions/105): how large an upload may be, their previews (decision 084), the watermark of a
 * classified PDF (decision 096), and the sandbox every parser of an upload runs in (decision 091).
 */

export const filesEnv = z.object({
  UPLOAD_MAX_BYTES: byteSize('UPLOAD_MAX_BYTES', 25 * MB),
  LARGE_UPLOAD_MAX_BYTES: byteSize('LARGE_UPLOAD_MAX_BYTES', 2048 * MB),
  PREVIEW_MAX_BYTES: byteSize('PREVIEW_MAX_BYTES', 30 * MB),
  PREVIEW_TIMEOUT_SECONDS: wholeNumber('PREVIEW_TIMEOUT_SECONDS', 120, 1, 3600),
  SOFFICE_PATH: text(),
  STAMP_TIMEOUT_SECONDS: wholeNumber('STAMP_TIMEOUT_SECONDS', 30, 1, 600),
  BWRAP_PATH: text(),
  SANDBOX_CPU_SECONDS: wholeNumber('SANDBOX_CPU_SECONDS', 120, 1, 3600),
  SANDBOX_MEMORY_MB: wholeNumber('SANDBOX_MEMORY_MB', 2048, 256, 65536),
  SANDBOX_MAX_PAGES: wholeNumber('SANDBOX_MAX_PAGES', 5000, 1, 1_000_000),
});
