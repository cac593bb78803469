import { describe, expect, it } from 'vitest';

import { employeeLabel, matchesFilter } from './employee-label.ts';

describe('employeeLabel', () => {
  it('uses the full name, else the email, else the fallback', () => {
    expect(employeeLabel({ name: 'Asha Verma', email: 'asha@lab.test' }, 'Unknown Employee')).toBe('Asha Verma');
    expect(employeeLabel({ name: '  ', email: 'asha@lab.test' }, 'Unknown Employee')).toBe('asha@lab.test');
    expect(employeeLabel({ name: null, email: '' }, 'Unknown Employee')).toBe('Unknown Employee');
  });
});

describe('matchesFilter', () => {
  const person = { name: 'Asha Verma', email: 'asha@lab.test' };
  it('matches name or email, ignoring case and surrounding spaces', () => {
    expect(matchesFilter(person, ' VERMA ')).toBe(true);
    expect(matchesFilter(person, 'lab.test')).toBe(true);
    expect(matchesFilter(person, '')).toBe(true);
    expect(matchesFilter(person, 'rohan')).toBe(false);
  });
});
