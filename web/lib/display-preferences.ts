import { useSyncExternalStore } from 'react';

/**
 * The reader's display choices (GIGW 3.0, WCAG 1.4.4): text size A−, A, A+ and a high-contrast theme. They are kept
 * in this browser's localStorage and written onto <html> as data-text-size / data-contrast, so every page (and the
 * CSS in web/app/global.css) honours them from the first paint.
 */
export const TEXT_SIZES = ['small', 'normal', 'large'] as const;
export type TextSize = (typeof TEXT_SIZES)[number];
export type Contrast = 'normal' | 'high';

export interface DisplayPreferences {
  textSize: TextSize;
  contrast: Contrast;
}

const KEYS = { textSize: 'textSize', contrast: 'contrast' } as const;
const DEFAULTS: DisplayPreferences = { textSize: 'normal', contrast: 'normal' };

function read(): DisplayPreferences {
  try {
    const textSize = localStorage.getItem(KEYS.textSize) as TextSize | null;
    const contrast = localStorage.getItem(KEYS.contrast);
    return {
      textSize: textSize && TEXT_SIZES.includes(textSize) ? textSize : DEFAULTS.textSize,
      contrast: contrast === 'high' ? 'high' : DEFAULTS.contrast,
    };
  } catch {
    return DEFAULTS; // storage disabled: the defaults, for this page only
  }
}

let current = read();
const listeners = new Set<() => void>();

/** Writes the choices onto <html>, where the global CSS reads them. */
function apply(prefs: DisplayPreferences) {
  const root = document.documentElement;
  root.dataset.textSize = prefs.textSize;
  root.dataset.contrast = prefs.contrast;
}

/** Call once before the first render (web/main.tsx). */
export function applyStoredDisplayPreferences() {
  current = read();
  apply(current);
}

/** Changes one or both choices, remembers them in this browser and re-renders every screen that reads them. */
export function setDisplayPreferences(change: Partial<DisplayPreferences>) {
  current = { ...current, ...change };
  try {
    localStorage.setItem(KEYS.textSize, current.textSize);
    localStorage.setItem(KEYS.contrast, current.contrast);
  } catch {
    // storage disabled: the choice lasts for this page only
  }
  apply(current);
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab of the portal changed them: follow it.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== KEYS.textSize && event.key !== KEYS.contrast) return;
    current = read();
    apply(current);
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The current display choices; re-renders when they change. */
export function useDisplayPreferences(): DisplayPreferences {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => DEFAULTS,
  );
}
