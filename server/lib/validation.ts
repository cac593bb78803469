import type { z } from 'zod';
import { badRequest } from './errors.ts';

/**
 * Checks fields the type provider cannot see (multipart text fields) with the shared zod schema, and turns the first
 * failure into the same 400 {message, field} the error handler gives for a JSON body.
 */
export function parseFields<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  throw badRequest(first?.message ?? 'Invalid input.', first?.path.length ? first.path.join('.') : undefined);
}
