import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fromMessageTable } from './message-table.ts';

const messages = (lng: string, ns: string) =>
  (
    JSON.parse(
      readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'locales', lng, `${ns}.json`), 'utf8'),
    ) as { messages: Record<string, string> }
  ).messages;

describe('messages tables', () => {
  it("words the feedback limit's real wait in Hindi (issue 28 item 10)", () => {
    const hi = messages('hi', 'site');
    expect(fromMessageTable(hi, 'Too many messages from your network. Please try again in 37 minutes.')).toBe(
      'आपके नेटवर्क से बहुत अधिक संदेश आए हैं। कृपया 37 मिनट बाद पुनः प्रयास करें।',
    );
    expect(fromMessageTable(hi, 'Too many messages from your network. Please try again in 1 minute.')).toBe(
      'आपके नेटवर्क से बहुत अधिक संदेश आए हैं। कृपया 1 मिनट बाद पुनः प्रयास करें।',
    );
    expect(
      fromMessageTable(messages('en', 'site'), 'Too many messages from your network. Please try again in 5 minutes.'),
    ).toBe('Too many messages from your network. Please try again in 5 minutes.');
  });

  it('matches exact sentences first, and {{n}} only for a whole number', () => {
    const table = { 'Wait {{n}} minutes.': '{{n}} मिनट रुकें।', 'Wait 1 minute.': '1 मिनट रुकें।' };
    expect(fromMessageTable(table, 'Wait 1 minute.')).toBe('1 मिनट रुकें।');
    expect(fromMessageTable(table, 'Wait 12 minutes.')).toBe('12 मिनट रुकें।');
    expect(fromMessageTable(table, 'Wait some minutes.')).toBeUndefined();
    expect(fromMessageTable(undefined, 'Wait 1 minute.')).toBeUndefined();
  });
});
