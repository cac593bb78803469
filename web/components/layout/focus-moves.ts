import type { MouseEvent } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const shown = (el: Element) => el.getClientRects().length > 0 && !el.closest('[inert], [aria-hidden="true"]');

/**
 * The skip link to the content lands on the first control of the page's main content (decision 032: 29 Tab presses
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
 * The skip link past the News Flash (decision 032: 8 News Flash links came before the header): it lands on the
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
 * Calls `act` with what `find` returns as soon as it is drawn inside `root` (pages and the narrow navigation's list load
 * lazily), waiting at most `waitMs`. Returns a function that stops waiting.
 */
function whenDrawn<T extends HTMLElement>(
  root: HTMLElement,
  find: () => T | null,
  act: (el: T) => void,
  waitMs: number,
): () => void {
  const tryNow = () => {
    const el = find();
    if (el) act(el);
    return el !== null;
  };
  if (tryNow()) return () => {};
  const observer = new MutationObserver(() => {
    if (tryNow()) stop();
  });
  const timer = setTimeout(() => stop(), waitMs);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
  }
  observer.observe(root, { childList: true, subtree: true });
  return stop;
}

/**
 * After a client-side move, put the keyboard and screen reader on the new page's main heading (WCAG 2.4.3;
 * decision 032): the main area at once, then its h1 as soon as the page (often loaded lazily) draws it, unless the
 * person has
 * already moved the focus elsewhere. Returns a function that stops waiting.
 */
export function focusPageHeading(main: HTMLElement, waitMs = 5000): () => void {
  main.focus({ preventScroll: true });
  const untouched = () => document.activeElement === main || document.activeElement === document.body;
  return whenDrawn(
    main,
    () => main.querySelector<HTMLElement>('h1'),
    (heading) => {
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
      if (untouched()) heading.focus({ preventScroll: true });
    },
    waitMs,
  );
}

/** The first element of the page (before the skip links), where a sign-in with no page asked for puts the focus. */
export const PAGE_TOP_ID = 'page-top';

/** The navigation state that asks for the focus at the top of the page after the move (decision 100). */
export const PAGE_TOP_STATE = { focus: 'top' } as const;

/** True when a move's navigation state asks for the focus at the top of the page. */
export function wantsPageTop(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { focus?: unknown }).focus === 'top';
}

/**
 * After a sign-in that lands on a page nobody asked for (decision 100): the focus goes to the top of the page, as on a
 * first load, so the next Tab reaches the skip links, then the header and the navigation (from the page's
 * heading, 49 Tabs went through the content, the footer and the News Flash before the menu). Returns a function that
 * stops nothing (for the effect that calls it).
 */
export function focusPageTop(): () => void {
  // No scrolling: it sits in the fixed header, and the router's scroll restoration puts a new page at its top.
  document.getElementById(PAGE_TOP_ID)?.focus({ preventScroll: true });
  return () => {};
}

const burgerButton = () => document.querySelector<HTMLElement>('[aria-controls="mobile-navigation"]');

/**
 * The narrow-screen navigation has opened (decision 032, follow-up): the focus goes to its first link as soon as its
 * list (loaded lazily) draws it, unless the person has moved the focus meanwhile (still on the menu button, or
 * nowhere). Returns a function that stops waiting.
 */
export function focusOpenedNavigation(drawer: HTMLElement, waitMs = 5000): () => void {
  const untouched = () =>
    document.activeElement === null ||
    document.activeElement === document.body ||
    document.activeElement === burgerButton();
  return whenDrawn(
    drawer,
    () => drawer.querySelector<HTMLElement>(':scope nav a[href]'),
    (link) => {
      // No scrolling: the list's first link is at its top, and the navigation may still be sliding in from the side.
      if (untouched()) link.focus({ preventScroll: true });
    },
    waitMs,
  );
}

/**
 * The narrow-screen navigation has closed: the focus goes back to the menu button that opened it, if the focus was
 * inside the navigation (and so is lost with it). A move to another page then puts it on that page's heading.
 */
export function focusClosedNavigation(drawer: HTMLElement | null): void {
  const active = document.activeElement;
  const lost = active === null || active === document.body || (drawer !== null && drawer.contains(active));
  const burger = burgerButton();
  if (lost && burger && shown(burger)) burger.focus();
}
