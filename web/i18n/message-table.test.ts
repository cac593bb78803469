import { describe, expect, it } from 'vitest';
import { fromMessageTable } from './message-table.ts';

describe('messages tables', () => {
  it('matches exact sentences first, and {{n}} only for a whole number', () => {
    const table = { 'Wait {{n}} minutes.': '{{n}} मिनट रुकें।', 'Wait 1 minute.': '1 मिनट रुकें।' };
    expect(fromMessageTable(table, 'Wait 1 minute.')).toBe('1 मिनट रुकें।');
    expect(fromMessageTable(table, 'Wait 12 minutes.')).toBe('12 मिनट रुकें।');
    expect(fromMessageTable(table, 'Wait some minutes.')).toBeUndefined();
    expect(fromMessageTable(undefined, 'Wait 1 minute.')).toBeUndefined();
  });
});
