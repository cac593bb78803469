import type { MouseEvent } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const shown = (el: Element) => el.getClientRects().length > 0 && !el.closest('[inert], [aria-hidden="true"]');

/**
 * The skip link to the content lands on the first control of the page's main content (issue 16: 29 Tab presses
 * reached "Upload Letter" on /dac); a page without a control gets the main area itself, so reading starts there.
 */
export function skipToFirstControl(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById('main-content');
  if (!main) return;
  event.preventDefault();
  const first = Array.from(main.querySelectorAll<HTMLElement>(FOCUSABLE)).find(shown);
  (first ?? main).focus();
  if (!first) main.scrollIntoView();
}

/**
 * The skip link past the News Flash (issue 35 item 2: 8 News Flash links came before the header): it lands on the
 * navigation bar, so the next Tab is its first link; on small screens, where the navigation folds into the burger,
 * on the burger.
 */
export function skipToNavigation(event: MouseEvent<HTMLAnchorElement>) {
  const bar = document.getElementById('main-navigation');
  const burger = document.querySelector<HTMLElement>('[aria-controls="mobile-navigation"]');
  const target = bar && shown(bar) ? bar : burger && shown(burger) ? burger : null;
  if (!target) return;
  event.preventDefault();
  target.focus();
}

/**
 * After a client-side move, put the keyboard and screen reader on the new page's main heading (WCAG 2.4.3; issue 35
 * item 2): the main area at once, then its h1 as soon as the page (often loaded lazily) draws it, unless the person has
 * already moved the focus elsewhere. Returns a function that stops waiting.
 */
export function focusPageHeading(main: HTMLElement, waitMs = 5000): () => void {
  main.focus({ preventScroll: true });
  const untouched = () => document.activeElement === main || document.activeElement === document.body;
  const tryHeading = () => {
    const heading = main.querySelector<HTMLElement>('h1');
    if (!heading) return false;
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    if (untouched()) heading.focus({ preventScroll: true });
    return true;
  };
  if (tryHeading()) return () => {};
  const observer = new MutationObserver(() => {
    if (tryHeading()) stop();
  });
  const timer = setTimeout(() => stop(), waitMs);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
  }
  observer.observe(main, { childList: true, subtree: true });
  return stop;
}
