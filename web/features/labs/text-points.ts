/**
 * About Lab and Lab History as bullet points (spec §2): the text is split at line breaks and at sentence ends
 * ('.', '!', '?' and the Devanagari danda '।' followed by a space). Blank pieces are dropped.
 */
export function splitIntoPoints(text: string | null | undefined): string[] {
  if (!text) return [];
  return text
    .split(/\r?\n+/)
    .flatMap((line) => line.split(/(?<=[.!?।])\s+/))
    .map((point) => point.trim())
    .filter(Boolean);
}
