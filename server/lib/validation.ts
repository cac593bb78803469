import type { z } from 'zod';

import { badRequest, codedValidation } from './errors.ts';

/**
 * Checks fields the type provider cannot see (multipart text fields) with the shared zod schema, and turns the first
 * failure into the same 400 {message, code, field} the error handler gives for a JSON body.
 */
export function parseFields<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const { code, params } = codedValidation(first?.message, first && 'params' in first ? first.params : undefined);
  throw badRequest(code, first?.path.length ? first.path.join('.') : undefined, params);
}
