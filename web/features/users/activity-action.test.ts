import { describe, expect, it } from 'vitest';

import hi from '#web/i18n/locales/hi/people.json' with { type: 'json' };

import { translateAction } from './activity-action.ts';

/** A stand-in for i18next's t over the Hindi people namespace. */
const t = (key: string, values: Record<string, string> = {}) => {
  const template = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], hi);
  return String(template).replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
};

describe('activity-log actions in Hindi (issue 16)', () => {
  it('translates the fixed sentences', () => {
    expect(translateAction('Signed in', 'hi', t)).toBe('साइन इन किया');
    expect(translateAction('Changed own password', 'hi', t)).toBe('अपना पासवर्ड बदला');
  });

  it('keeps names, emails and ids inside a translated sentence', () => {
    expect(translateAction('Uploaded letter L-2026-000123', 'hi', t)).toBe('पत्र L-2026-000123 अपलोड किया');
    expect(translateAction('Approved user a@lab.test as employee in group Fire Safety', 'hi', t)).toBe(
      'उपयोगकर्ता a@lab.test को समूह Fire Safety में employee के रूप में स्वीकृत किया',
    );
  });

  it('shows English as stored, and an unknown sentence as stored', () => {
    expect(translateAction('Signed in', 'en', t)).toBe('Signed in');
    expect(translateAction('Purged letter L-1 (x)', 'hi', t)).toBe('Purged letter L-1 (x)');
  });
});
