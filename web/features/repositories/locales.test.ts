import { describe, expect, it } from 'vitest';

import { codeOf } from '#shared/messages/index.ts';
import { REPOSITORY_MESSAGES } from '#shared/schemas/repository.ts';

import en from '#web/i18n/locales/en/repositories.json';
import hi from '#web/i18n/locales/hi/repositories.json';

/** Every key path of a nested messages object ("card.download", "messages.<sentence>"). */
function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}\u0000${k}` : k));
}

describe('repositories texts', () => {
  it('has Hindi for every English text', () => {
    expect(keys(hi).sort()).toEqual(keys(en).sort());
    for (const [key, text] of Object.entries(hi.card)) expect(text, key).not.toBe('');
  });

  it('gives every validation sentence of the shared schema a code (worded in Hindi by messages.json)', () => {
    for (const sentence of Object.values(REPOSITORY_MESSAGES)) {
      expect(codeOf(sentence)?.code, sentence).toMatch(/^repositories\./);
    }
  });

  it('keeps the spec texts to the letter (spec §2, §8)', () => {
    expect(en.card).toMatchObject({ download: 'Download File', noFile: 'No File Available' });
    expect(en.software).toMatchObject({
      unnamed: 'Unnamed Repository',
      empty: 'No Repositories Found',
      loadFailed: 'Failed to load software repositories. Please try again later.',
      success: 'Software repository uploaded successfully!',
    });
    expect(en.trial).toMatchObject({
      empty: 'No Trial Repositories Found',
      loadFailed: 'Failed to load trial repositories. Please try again.',
      success: 'Trial repository uploaded successfully!',
    });
    expect(en.banner).toEqual({
      uploadFailed: 'Upload failed: {{message}}',
      unknownError: 'An unknown error occurred.',
    });
    expect(en.errors.loadGroups).toBe('Failed to load groups. Please try refreshing the page.');
  });
});
