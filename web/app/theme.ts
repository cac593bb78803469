import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Navy of the lab's emblem; shade 7 and darker carry white text at 7:1 or better (WCAG 1.4.3). */
const navy: MantineColorsTuple = [
  '#e8f0f9',
  '#cbdcf0',
  '#a8c3e4',
  '#82a8d7',
  '#5f8fca',
  '#4179bd',
  '#2d67ae',
  '#1f5596',
  '#14467f',
  '#0b3d6e',
];

export const theme = createTheme({
  primaryColor: 'navy',
  primaryShade: { light: 7, dark: 5 },
  colors: { navy },
  // Shipped with the portal (web/main.tsx, global.css): Latin from Noto Sans, Hindi from Noto Sans Devanagari and the
  // messages' emoji from Noto Emoji, whatever is installed.
  fontFamily:
    '"Noto Sans", "Noto Sans Devanagari", "Noto Emoji", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: {
    fontWeight: '700',
    fontFamily: '"Noto Sans", "Noto Sans Devanagari", "Noto Emoji", system-ui, sans-serif',
  },
  defaultRadius: 'sm',
  focusRing: 'auto',
  cursorType: 'pointer',
});

/**
 * Mantine's light defaults for dimmed text (gray 6), placeholders (gray 5) and errors (red 6) fall below 4.5:1 on
 * white; these are the darker shades that pass AA.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});

/**
 * The high-contrast theme (GIGW 3.0, chosen in the header): black text on white, black borders, no grey text or
 * tinted backgrounds, the darkest navy for buttons and links (web/app/global.css adds underlined links and thicker
 * field borders under html[data-contrast='high']).
 */
export const highContrastVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-body': '#ffffff',
    '--mantine-color-text': '#000000',
    '--mantine-color-dimmed': '#000000',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-8)',
    '--mantine-color-error': '#8a0000',
    '--mantine-color-default-border': '#000000',
    '--mantine-color-anchor': 'var(--mantine-color-navy-9)',
    '--mantine-color-gray-0': '#ffffff',
    '--mantine-color-gray-1': '#ffffff',
  },
  dark: {},
});

/** Overrides of the theme for the high-contrast choice: the darkest shade of every colour for filled controls. */
export const highContrastTheme = createTheme({ primaryShade: { light: 9, dark: 9 } });
