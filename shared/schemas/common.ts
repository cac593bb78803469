import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.ts';

/** Optional free text: trimmed, absent means ''. */
export const optionalText = z.string().trim().max(5000).default('');
/** A YYYY-MM-DD date, or '' / null for none. */
export const optionalDate = z
  .union([z.iso.date('Please enter a valid date.'), z.literal(''), z.null()])
  .optional()
  .transform((v) => (v ? v : null));
export const uuidParam = z.object({ id: z.uuid('Invalid id.') });
/** Optional server-side paging (?limit&offset). */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
});
export const messageJson = z.object({ message: z.string() });
export const errorJson = z.object({ error: z.string(), message: z.string(), field: z.string().optional() });
