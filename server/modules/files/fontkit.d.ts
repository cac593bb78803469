// The part of fontkit (no types of its own) that pdf-stamp.ts uses: pdf-lib's registerFontkit takes the module, and
// pdf-stamp.ts reads it through pdf-lib's own type of it.
declare module 'fontkit' {
  export function create(buffer: Uint8Array, postscriptName?: string): unknown;
}
