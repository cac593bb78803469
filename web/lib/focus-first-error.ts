/**
 * After a submit that was refused, the keyboard and screen reader go to the first field in error (WCAG 3.3.1,
 *). Mantine marks a field in error with aria-invalid="true", so this works for every form built with
 * @mantine/form and the shared zod schemas, and for fields a server error was put on (form.setFieldError).
 */
export function focusFirstError(form: HTMLFormElement | null): boolean {
  const field = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!field) return false;
  field.focus();
  return true;
}

/** How long after a submit a server's answer may still mark a field in error and take the focus there. */
const SERVER_ANSWER_MS = 15_000;

/**
 * Installed once (web/main.tsx) so no form can forget it: after any form's submit, once React has shown the errors
 * (at once for validation, later for the server's `field`), focus moves to the first field in error, unless the reader
 * has gone elsewhere meanwhile. A submit that succeeds marks no field and keeps the focus where it was.
 */
export function installFocusFirstError(root: Document = document): () => void {
  let stopWatching = () => {};
  const onSubmit = (event: Event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    stopWatching();
    const stillHere = () => {
      const active = root.activeElement;
      return !active || active === root.body || form.contains(active);
    };
    // Validation errors: shown in the same task, so look after the next paint.
    requestAnimationFrame(() => requestAnimationFrame(() => stillHere() && focusFirstError(form)));
    // A server's answer: a field becomes aria-invalid later.
    const observer = new MutationObserver((changes) => {
      if (!changes.some((c) => (c.target as Element).getAttribute('aria-invalid') === 'true')) return;
      stopWatching();
      if (stillHere()) focusFirstError(form);
    });
    observer.observe(form, { attributes: true, attributeFilter: ['aria-invalid'], subtree: true });
    const timer = setTimeout(() => stopWatching(), SERVER_ANSWER_MS);
    stopWatching = () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  };
  root.addEventListener('submit', onSubmit);
  return () => {
    stopWatching();
    root.removeEventListener('submit', onSubmit);
  };
}
