import { describe, expect, it } from 'vitest';

import { updateProfileInput } from '#shared/schemas/user.ts';

import { profile } from '#web/test/profile-fixture.ts';

import { toFormValues, toProfileInput } from './profile-values.ts';

describe('profile form values', () => {
  it('fill the form from the profile: dates as text, skills comma-separated, qualifications one per line', () => {
    const values = toFormValues(profile);
    expect(values.personalDetails.dob).toBe('1990-04-12');
    expect(values.professionalDetails.joiningDate).toBe('');
    expect(values.professionalDetails.skills).toBe('CFD, thermal analysis');
    expect(values.professionalDetails.qualifications).toBe('M.Tech, IIT Delhi\nB.E.');
    expect(values.employmentPeriod).toEqual({ from: '2015-06-01', to: '' });
  });

  it('turn back into the PUT body the server schema accepts, with lists trimmed and blanks dropped', () => {
    const values = toFormValues(profile);
    values.professionalDetails.skills = ' CFD ,, thermal analysis , ';
    values.professionalDetails.qualifications = 'M.Tech, IIT Delhi\n\n  B.E.  ';
    const input = toProfileInput(values);
    expect(input.professionalDetails?.skills).toEqual(['CFD', 'thermal analysis']);
    expect(input.professionalDetails?.qualifications).toEqual(['M.Tech, IIT Delhi', 'B.E.']);
    const parsed = updateProfileInput.parse(input);
    expect(parsed.employmentPeriod).toEqual({ from: '2015-06-01', to: null });
    expect(parsed.personalDetails?.emergencyContact).toEqual({ name: 'Ravi', relationship: 'Brother', mobile: '' });
  });

  it('are refused by the schema when a cadre change left the designation empty (spec §4, §5)', () => {
    const values = toFormValues(profile);
    values.professionalDetails.cadre = 'DRTC';
    values.professionalDetails.designation = '';
    const result = updateProfileInput.safeParse(toProfileInput(values));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      message: 'Designation is required.',
      path: ['professionalDetails', 'designation'],
    });
  });
});
