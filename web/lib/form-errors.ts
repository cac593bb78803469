import type { GetInputPropsReturnType, UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';

import { translateCoded, translateMessage } from '#web/i18n/index.ts';

import { ApiError } from './api-client.ts';

export { requiredFile, topField, zodValidate } from './form-validate.ts';

/**
 * The one way a web form checks its values and shows errors (decision 023). Every form validates with its shared
 * zod schema through `zodValidate`, keeps the schema's and the server's sentences in English in `form.errors`, and
 * shows them in the reader's language through `translatedErrors` (so a language switch re-words them); a failed call
 * is worded by `serverMessage` and put on its input by `applyServerError`.
 */

// NOTE: any: the helpers work on every form's values; each form keeps its own typed useForm.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyForm = UseFormReturnType<any>;

/** The server's sentence (spec §8: its error or message field) in the current language, else `fallback`. */
export function serverMessage(err: unknown, fallback = ''): string {
  if (!(err instanceof ApiError) || !err.message) return fallback;
  return err.coded ? translateCoded(err.coded, err.message) : translateMessage(err.message);
}

/**
 * Puts a failed call's message on the input its `field` names, when the form shows that input: `fields` lists them
 * (every field the form holds when left out), `fold` maps a nested server path onto one (e.g. `requestedBy.0` →
 * `requestedBy`). The sentence stays English here; `translatedErrors` words it. Returns whether it was placed, so
 * the caller toasts only what no input shows.
 */
export function applyServerError(
  form: AnyForm,
  err: unknown,
  { fields, fold }: { fields?: readonly string[]; fold?: (field: string) => string } = {},
): boolean {
  if (!(err instanceof ApiError) || !err.field || !err.message) return false;
  const field = fold ? fold(err.field) : err.field;
  const known = fields ? fields.includes(field) : hasPath(form.getValues(), field);
  if (!known) return false;
  form.setFieldError(field, err.message);
  return true;
}

/** Whether `path` (`personalDetails.name`) names a value the form holds. */
function hasPath(values: unknown, path: string): boolean {
  let node = values;
  for (const key of path.split('.')) {
    if (!node || typeof node !== 'object' || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/**
 * The form's errors in the reader's language: `error(path)` for an input given its props by hand, `field(path)` for
 * getInputProps with the error translated. Call during render of a component that uses useTranslation, so a language
 * switch re-words them.
 */
export function translatedErrors(form: AnyForm) {
  const error = (path: string): ReactNode => {
    const message = form.errors[path];
    return typeof message === 'string' ? translateMessage(message) : message;
  };
  const field = (path: string, options?: Parameters<AnyForm['getInputProps']>[1]): GetInputPropsReturnType => ({
    ...form.getInputProps(path, options),
    error: error(path),
  });
  return { error, field };
}
