import { describe, expect, it } from 'vitest';

import { initialsOf } from './profile-photo.tsx';

describe('initialsOf', () => {
  it('takes the first letters of the first two words of a name', () => {
    expect(initialsOf('Kavita Rao')).toBe('KR');
    expect(initialsOf('  amit   kumar singh ')).toBe('AK');
    expect(initialsOf('Meena')).toBe('M');
  });

  it('skips a title written before the name', () => {
    expect(initialsOf('Dr. Kavita Rao')).toBe('KR');
    expect(initialsOf('Shri R. K. Verma')).toBe('RK');
    expect(initialsOf('Prof Anil Mehta')).toBe('AM');
  });

  it('keeps a name that is only a title-like word', () => {
    expect(initialsOf('Dr.')).toBe('D');
  });
});
