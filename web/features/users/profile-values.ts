import type { Cadre } from '#shared/constants.ts';
import { type ProfileJson, splitCommaList, type UpdateProfileInput } from '#shared/schemas/user.ts';

/** The profile form's values: plain strings for the inputs (skills comma-separated, qualifications one per line). */
export interface ProfileFormValues {
  about: string;
  personalDetails: {
    name: string;
    dob: string;
    mobile: string;
    address: string;
    gender: string;
    maritalStatus: string;
    bloodGroup: string;
    emergencyContact: { name: string; relationship: string; mobile: string };
  };
  professionalDetails: {
    cadre: Cadre | '';
    designation: string;
    intercom: string;
    internetEmail: string;
    dronaEmail: string;
    pis: string;
    aebasId: string;
    joiningDate: string;
    skills: string;
    qualifications: string;
  };
  employmentPeriod: { from: string; to: string };
  socialLinks: { linkedin: string; twitter: string; facebook: string; github: string };
}

/** The form filled from the saved profile. */
export function toFormValues(p: ProfileJson): ProfileFormValues {
  const { emergencyContact: e } = p.personalDetails;
  const q = p.professionalDetails;
  return {
    about: p.about,
    personalDetails: {
      name: p.personalDetails.name,
      dob: p.personalDetails.dob ?? '',
      mobile: p.personalDetails.mobile,
      address: p.personalDetails.address,
      gender: p.personalDetails.gender,
      maritalStatus: p.personalDetails.maritalStatus,
      bloodGroup: p.personalDetails.bloodGroup,
      emergencyContact: { name: e.name, relationship: e.relationship, mobile: e.mobile },
    },
    professionalDetails: {
      cadre: q.cadre as Cadre | '',
      designation: q.designation,
      intercom: q.intercom,
      internetEmail: q.internetEmail,
      dronaEmail: q.dronaEmail,
      pis: q.pis,
      aebasId: q.aebasId,
      joiningDate: q.joiningDate ?? '',
      skills: q.skills.join(', '),
      qualifications: q.qualifications.join('\n'),
    },
    employmentPeriod: { from: p.employmentPeriod.from ?? '', to: p.employmentPeriod.to ?? '' },
    socialLinks: { ...p.socialLinks },
  };
}

/**
 * The PUT /api/users/{id} body: every section, with the lists split (spec §5: skills comma-separated, trimmed). The
 * option fields hold a choice of their list or '' (the schema checks them), hence the one cast.
 */
export function toProfileInput(v: ProfileFormValues): UpdateProfileInput {
  return {
    about: v.about,
    personalDetails: { ...v.personalDetails, emergencyContact: { ...v.personalDetails.emergencyContact } },
    professionalDetails: {
      ...v.professionalDetails,
      skills: splitCommaList(v.professionalDetails.skills),
      qualifications: v.professionalDetails.qualifications
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean),
    },
    employmentPeriod: { ...v.employmentPeriod },
    socialLinks: { ...v.socialLinks },
  } as UpdateProfileInput;
}
