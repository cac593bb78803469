import { type FormErrors, schemaResolver } from '@mantine/form';

/**
 * The one resolver path of the web forms (decision 023): every form checks its values with its shared zod schema
 * through `zodValidate`, so the form and the route say the same words (spec §5). Free of i18n and the DOM so plain
 * helpers (repositories/form-data.ts) can use it too; components import it through form-errors.ts.
 */

type Schema = Parameters<typeof schemaResolver>[0];
/** The small rule of a file input the schema cannot see (multipart): `message` (English) when none is chosen. */
export const requiredFile =
  (message: string) =>
  (file: File | null): string | null =>
    file ? null : message;

/**
 * The one resolver: the shared zod schema (spec §5 messages), synchronously, on the values as `toInput` turns them
 * into the schema's input (the values themselves by default). `fold` moves an error to the input that shows it
 * (e.g. a refused list entry `skills.2` onto the list's box); the first message per input wins. `fileRequired`: the
 * chosen file lives in the values as `file`, and this message is its error when there is none.
 */
export function zodValidate<V>(
  schema: Schema,
  {
    toInput,
    fold,
    fileRequired,
  }: { toInput?: (values: V) => unknown; fold?: (path: string) => string; fileRequired?: string } = {},
): (values: V) => FormErrors {
  const resolve = schemaResolver(schema, { sync: true });
  const fileRule = fileRequired ? requiredFile(fileRequired) : null;
  return (values) => {
    const errors = resolve(toInput ? toInput(values) : values);
    const folded: FormErrors = {};
    for (const [path, message] of Object.entries(errors)) folded[fold ? fold(path) : path] ??= message;
    const fileError = fileRule?.((values as { file?: File | null }).file ?? null);
    if (fileError) folded.file ??= fileError;
    return folded;
  };
}

/** The first segment of a nested path: `employees.3` → `employees`. */
export const topField = (path: string) => path.split('.')[0]!;
