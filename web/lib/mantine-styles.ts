// Mantine's full style sheets, loaded once, with the first screen or control that is not part of the first page
// (web/app/mantine-shell.css holds what the shell and the home page draw; decision 058).

let loading: Promise<unknown> | undefined;

/**
 * Loads Mantine's core styles (in the `mantine` layer) once; resolves when they apply. The dates and notifications
 * packages' styles come with the modules that use them (date-field.tsx, toasts.tsx).
 */
export const loadMantineStyles = () => (loading ??= import('@mantine/core/styles.layer.css'));

/**
 * Wraps a lazy module's loader so that the module resolves only once Mantine's full styles are in: a lazy screen or
 * control never paints unstyled.
 */
export const withMantineStyles =
  <T>(load: () => Promise<T>) =>
  async (): Promise<T> =>
    (await Promise.all([load(), loadMantineStyles()]))[0];
