import type {
  DirectoryUserJson,
  ProfileJson,
  UserCloseGroupJson,
  UserDocumentJson,
  UserJson,
} from '#shared/schemas/user.ts';

import type { UserRow } from '#server/db/schema/index.ts';
import type { CloseGroupRow } from '#server/modules/close-groups/close-groups.service.ts';
import { fileUrl } from '#server/modules/files/storage-areas.ts';

import type { UserWithGroup } from './users.queries.ts';
import type { DirectoryUserRow, UserDocument } from './users.service.ts';

/** The one place a user row becomes JSON (spec §3 User): the password hash never leaves the server. */
export function presentUser(u: UserRow, group: { id: string; name: string } | null = null): UserJson {
  return {
    _id: u.id,
    email: u.email,
    role: u.role,
    status: u.status,
    statusReason: u.statusReason,
    authSource: u.authSource,
    language: u.language,
    languageChosen: u.languageChosenAt !== null,
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

/** A document on a user's record; its link is served only to the user and admins (users.policy 'users.download_document'). */
export function presentUserDocument(d: UserDocument): UserDocumentJson {
  return {
    _id: d.id,
    filename: d.filename,
    url: fileUrl('user-documents', d.fileId)!,
    uploadedAt: d.createdAt.toISOString(),
  };
}

/** The whole profile with its documents (the owner and admins only). */
export function presentProfile(found: UserWithGroup, documents: UserDocument[]): ProfileJson {
  return { ...presentUser(found.user, found.group), documents: documents.map(presentUserDocument) };
}

/** What any member of staff sees of a colleague: the directory card. */
export function presentDirectoryUser({ user: u, group }: DirectoryUserRow): DirectoryUserJson {
  return {
    _id: u.id,
    email: u.email,
    role: u.role,
    photo: fileUrl('profile-photos', u.photoFileId),
    group: group ? { _id: group.id, name: group.name } : null,
    personalDetails: { name: u.name, fullName: u.name },
    professionalDetails: { designation: u.designation, cadre: u.cadre, intercom: u.intercom },
  };
}

/** A close group on a user record (spec §3 User: closeGroup): what it is and how long it runs. */
export function presentUserCloseGroup(g: CloseGroupRow): UserCloseGroupJson {
  return {
    _id: g.id,
    groupName: g.groupName,
    groupPurpose: g.groupPurpose,
    groupDuration: { from: g.durationFrom, to: g.durationTo },
  };
}
