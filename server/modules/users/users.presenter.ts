import type { UserJson } from '#shared/schemas/user.ts';
import type { UserRow } from '#server/db/schema/index.ts';
import { fileUrl } from '#server/modules/files/storage.ts';

/** The one place a user row becomes JSON (spec §3 User): the password hash never leaves the server. */
export function presentUser(u: UserRow, group: { id: string; name: string } | null = null): UserJson {
  return {
    _id: u.id,
    email: u.email,
    role: u.role,
    status: u.status,
    statusReason: u.statusReason,
    photo: fileUrl('profile-photos', u.photoFileId),
    about: u.about,
    labId: u.labId,
    group: group ? { _id: group.id, name: group.name } : null,
    personalDetails: {
      name: u.name,
      fullName: u.name,
      dob: u.dob,
      mobile: u.mobile,
      address: u.address,
      gender: u.gender,
      maritalStatus: u.maritalStatus,
      bloodGroup: u.bloodGroup,
      emergencyContact: { name: u.emergencyName, relationship: u.emergencyRelationship, mobile: u.emergencyMobile },
    },
    professionalDetails: {
      designation: u.designation,
      cadre: u.cadre,
      intercom: u.intercom,
      internetEmail: u.internetEmail,
      dronaEmail: u.dronaEmail,
      pis: u.pis,
      aebasId: u.aebasId,
      joiningDate: u.joiningDate,
      skills: u.skills,
      qualifications: u.qualifications,
    },
    employmentPeriod: { from: u.employmentFrom, to: u.employmentTo },
    socialLinks: { linkedin: u.linkedin, twitter: u.twitter, facebook: u.facebook, github: u.github },
    createdAt: u.createdAt.toISOString(),
  };
}
