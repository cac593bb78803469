import { todayInIndia } from '#shared/format.ts';
import type {
  GroupDocumentField,
  GroupEmployeeJson,
  GroupFileField,
  GroupItemJson,
  GroupJson,
} from '#shared/schemas/group.ts';
import type { ContactInfoJson, OfficeMemberJson } from '#shared/schemas/unit.ts';

import type { GroupRow } from '#server/db/schema/index.ts';
import { presentDirectorEntry } from '#server/modules/director-history/director-history.presenter.ts';
import { fileUrl } from '#server/modules/files/storage-areas.ts';
import { presentUnitItem } from '#server/modules/unit-items/unit-items.presenter.ts';

import type { EmployeeRow, GroupDetails, ItemRow, OfficeRow } from './groups.service.ts';

/** Group notices, circulars and files are private: members, directors and admins open them (decision 006). */
export const GROUP_FILES_AREA = 'group-files';

/** The group_items kind behind each list of the group JSON. */
export const KIND_OF = {
  notices: 'notice',
  circulars: 'circular',
  projects: 'project',
  patents: 'patent',
  technologies: 'technology',
  courses: 'course',
  publications: 'publication',
} as const satisfies Record<GroupDocumentField | GroupFileField, string>;
export type GroupItemField = keyof typeof KIND_OF;

/** Row -> spec JSON for a group notice, circular or file; expired is judged against today in India. */
export const presentItem = (i: ItemRow): GroupItemJson => presentUnitItem(i, GROUP_FILES_AREA, todayInIndia());

export const presentEmployee = (u: EmployeeRow): GroupEmployeeJson => ({
  _id: u.id,
  name: u.name,
  email: u.email,
  photo: fileUrl('profile-photos', u.photoFileId),
  role: u.role,
  designation: u.designation,
});

export const presentOffice = (o: OfficeRow): OfficeMemberJson => ({
  _id: o.id,
  name: o.name,
  designation: o.designation,
  contactNumber: o.contactNumber,
  email: o.email,
});

/** Spec §3 Group: the current associate director is the entry with no end date, else the latest. */
export function currentEntry<T extends { to: string | null }>(entriesNewestFirst: T[]): T | null {
  return entriesNewestFirst.find((e) => !e.to) ?? entriesNewestFirst[0] ?? null;
}

/** The one place a group and its lists become the spec's JSON (spec §3 Group). */
export function presentGroup(group: GroupRow, d: GroupDetails, canManage: boolean): GroupJson {
  const of = (field: GroupItemField) => d.items.filter((i) => i.kind === KIND_OF[field]).map(presentItem);
  const history = d.entries.map(presentDirectorEntry);
  const current = currentEntry(d.entries);
  return {
    _id: group.id,
    name: group.name,
    description: group.description,
    about: group.about,
    vision: group.vision,
    mission: group.mission,
    GroupHistoryDetails: group.history,
    contactInfo: d.contacts.map((c): ContactInfoJson => ({ _id: c.id, type: c.type, label: c.label, value: c.value })),
    employees: d.employees.map(presentEmployee),
    notices: of('notices'),
    circulars: of('circulars'),
    projects: of('projects'),
    patents: of('patents'),
    technologies: of('technologies'),
    courses: of('courses'),
    publications: of('publications'),
    assistantDirectorHistory: history,
    currentAD: current ? presentDirectorEntry(current) : null,
    officeOfGroup: d.office.map(presentOffice),
    canManage,
    updatedAt: group.updatedAt.toISOString(),
  };
}
