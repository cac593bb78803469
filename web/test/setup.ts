// Setup of the web component tests (jsdom, vitest.config.ts project "web"): what Mantine needs of a browser that
// jsdom lacks, the jest-dom matchers, every English namespace loaded before a test renders, and a clean DOM after.
import '@testing-library/jest-dom/vitest';

import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

import i18n, { i18nReady } from '#web/i18n/index.ts';

// A toast comes from a lazily loaded module (web/app/providers.tsx): on a busy CI machine its first import takes more
// than Testing Library's default second, so findBy* waits up to 5 s.
configure({ asyncUtilTimeout: 5000 });

// NOTE: Mantine reads the colour scheme and breakpoints through matchMedia and sizes popovers with ResizeObserver
// (mantine.dev/guides/vitest); jsdom has neither.
Object.defineProperty(window, 'matchMedia', {
  configurable: true,
  writable: true,
  value: (query: string) => ({
    // Reduced motion: with the provider's respectReducedMotion, dialogs and toasts open and close at once.
    matches: query.includes('prefers-reduced-motion'),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
// Textarea autosize listens for web fonts loading (document.fonts), which jsdom does not implement.
Object.defineProperty(document, 'fonts', {
  configurable: true, // the setup runs again for each file in the same jsdom (isolate: false)
  value: Object.assign(new EventTarget(), { ready: Promise.resolve() }),
});
window.scrollTo = () => {};
Element.prototype.scrollIntoView = () => {};
window.HTMLElement.prototype.scrollTo = () => {};

// English, the spec's texts to the letter: every namespace in memory, so screens render without Suspense fallbacks.
await i18nReady;
await i18n.changeLanguage('en');
const namespaces = Object.keys(import.meta.glob('../i18n/locales/en/*.json')).map(
  (file) => /([\w-]+)\.json$/.exec(file)![1]!,
);
// The refusals' texts ('messages', decision 087) load after the first page in the app; here before every test.
await i18n.loadNamespaces([...namespaces, 'messages']);

afterEach(() => {
  cleanup();
  // Toasts live in Mantine's notifications store, which outlives a test when the files share one jsdom.
  notifications.clean();
  vi.restoreAllMocks();
  localStorage.clear();
});
