import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), 'locales');
const languages = readdirSync(root);
const namespaces = readdirSync(path.join(root, 'en')).map((f) => f.replace(/\.json$/, ''));

/**
 * Every [key path, value] of a translation file. The refusals' namespace (messages) has no English file: its English is
 * the shared catalogue, checked against the Hindi by messages.test.ts.
 */
function entries(value: unknown, prefix = ''): [string, unknown][] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => entries(v, prefix ? `${prefix} › ${k}` : k));
  }
  return [[prefix, value]];
}
const load = (lng: string, ns: string) =>
  JSON.parse(readFileSync(path.join(root, lng, `${ns}.json`), 'utf8')) as Record<string, unknown>;

describe('translations', () => {
  it('has English and Hindi', () => {
    expect(languages.sort()).toEqual(['en', 'hi']);
  });

  it.each(namespaces)('namespace "%s" has the same keys in every language, none empty', (ns) => {
    const english = entries(load('en', ns))
      .map(([k]) => k)
      .sort();
    for (const lng of languages) {
      const list = entries(load(lng, ns));
      expect(list.map(([k]) => k).sort(), `${lng}/${ns}.json`).toEqual(english);
      const empty = list.filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k]) => k);
      expect(empty, `${lng}/${ns}.json empty values`).toEqual([]);
    }
  });

  it.each(namespaces)('namespace "%s" in Hindi is written in Hindi, not English copied', (ns) => {
    const list = entries(load('hi', ns));
    const devanagari = list.filter(([, v]) => typeof v === 'string' && /[\u0900-\u097F]/.test(v));
    // Some values read the same in both (emails, "PIS", "AEBAS ID", 'N/A'): most must be Devanagari.
    expect(devanagari.length / list.length).toBeGreaterThan(0.7);
  });
});
