import { describe, expect, it } from 'vitest';

import { splitIntoPoints } from './text-points.ts';

describe('splitIntoPoints', () => {
  it('splits at line breaks and sentence ends, dropping blanks', () => {
    expect(splitIntoPoints('First line\n\nSecond sentence. Third one! Fourth?  Fifth.\r\nLast')).toEqual([
      'First line',
      'Second sentence.',
      'Third one!',
      'Fourth?',
      'Fifth.',
      'Last',
    ]);
  });

  it('keeps abbreviations without a following space and splits Hindi at the danda', () => {
    expect(splitIntoPoints('Set up in 1950 (approx.3 acres). Moved.')).toEqual([
      'Set up in 1950 (approx.3 acres).',
      'Moved.',
    ]);
    expect(splitIntoPoints('प्रयोगशाला की स्थापना हुई। यह दिल्ली में है।')).toEqual([
      'प्रयोगशाला की स्थापना हुई।',
      'यह दिल्ली में है।',
    ]);
  });

  it('gives nothing for empty text', () => {
    expect(splitIntoPoints('')).toEqual([]);
    expect(splitIntoPoints('  \n ')).toEqual([]);
    expect(splitIntoPoints(null)).toEqual([]);
  });
});
