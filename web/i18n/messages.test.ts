import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { allMessages, catalogue, placesOf } from '#shared/messages/index.ts';

/**
 * The refusals' catalogue (shared/messages, decision 034) against the Hindi file and the code that sends them: every
 * code has English and Hindi with the same `{{places}}`, and every code in a locale is one the source sends.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hindi = JSON.parse(readFileSync(path.join(root, 'web/i18n/locales/hi/messages.json'), 'utf8')) as Record<
  string,
  Record<string, string>
>;

const keysOf = (tree: Record<string, Record<string, string>>) =>
  Object.entries(tree)
    .flatMap(([domain, entries]) => Object.keys(entries).map((key) => `${domain}.${key}`))
    .sort();

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'migrations' || name === 'messages' || name.startsWith('.')) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(readFileSync(p, 'utf8'));
  }
  return out;
}

describe('the refusals catalogue', () => {
  it('has Hindi for every code and nothing else', () => {
    expect(keysOf(hindi)).toEqual(keysOf(catalogue as unknown as Record<string, Record<string, string>>));
  });

  it('words each code in Hindi, with the same places as the English', () => {
    for (const [domain, entries] of Object.entries(catalogue as unknown as Record<string, Record<string, string>>)) {
      for (const [key, english] of Object.entries(entries)) {
        const translated = hindi[domain]?.[key] ?? '';
        expect(translated.trim(), `${domain}.${key}`).not.toBe('');
        expect(placesOf(translated).sort(), `${domain}.${key}`).toEqual(placesOf(english).sort());
        if (/[A-Za-z]{3}/.test(english.replace(/\{\{\w+\}\}/g, '')))
          expect(translated, `${domain}.${key} is in Hindi`).toMatch(/[\u0900-\u097F]/);
      }
    }
  });

  it('holds only codes the portal sends', () => {
    const text = ['server', 'shared', 'web'].flatMap((d) => sources(path.join(root, d))).join('\n');
    const unused = [...new Set(allMessages().map(([code]) => code))].filter(
      (code) => !text.includes(`'${code}'`) && !text.includes(`"${code}"`),
    );
    expect(unused).toEqual([]);
  });
});
