import { describe, expect, it } from 'vitest';
import { updateProfileInput, type ProfileJson } from '#shared/schemas/user.ts';
import { toFormValues, toProfileInput } from './profile-values.ts';

const profile: ProfileJson = {
  _id: '00000000-0000-4000-8000-000000000001',
  email: 'asha@lab.test',
  role: 'employee',
  status: 'approved',
  statusReason: null,
  photo: null,
  about: 'Fire safety.',
  labId: null,
  group: null,
  personalDetails: {
    name: 'Asha Verma',
    fullName: 'Asha Verma',
    dob: '1990-04-12',
    mobile: '9876543210',
    address: 'Delhi',
    gender: 'Female',
    maritalStatus: '',
    bloodGroup: 'O+',
    emergencyContact: { name: 'Ravi', relationship: 'Brother', mobile: '' },
  },
  professionalDetails: {
    designation: "Scientist 'C'",
    cadre: 'DRDS',
    intercom: '2231',
    internetEmail: '',
    dronaEmail: '',
    pis: '',
    aebasId: '',
    joiningDate: null,
    skills: ['CFD', 'thermal analysis'],
    qualifications: ['M.Tech, IIT Delhi', 'B.E.'],
  },
  employmentPeriod: { from: '2015-06-01', to: null },
  socialLinks: { linkedin: '', twitter: '', facebook: '', github: 'https://github.com/asha' },
  createdAt: '2026-01-01T00:00:00.000Z',
  documents: [],
};

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
