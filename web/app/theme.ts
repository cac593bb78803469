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
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Devanagari", "Nirmala UI", Mangal, sans-serif',
  headings: { fontWeight: '700' },
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
