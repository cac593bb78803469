import { z } from 'zod';

import { ROLES } from '../constants.ts';
import { msg } from '../messages/index.ts';
import { optionalText, plainText } from './common.ts';
import {
  contactInfoInput,
  contactInfoJson,
  directorEntryJson,
  officeMemberJson,
  unitItemInput,
  unitItemJson,
} from './unit.ts';

/** {_id, name} as GET /api/groups/name answers, and the groups dropdown and selects use. */
export const groupNameJson = z.object({ _id: z.uuid(), name: z.string() });
export type GroupNameJson = z.infer<typeof groupNameJson>;

/**
 * A group in the signed-in person's Groups menu (GET /api/groups/menu): `mine` when they belong to it or lead it,
 * `canOpen` when its page would let them in (spec §6: directors and admins, else members and its leader).
 */
export const groupMenuItemJson = groupNameJson.extend({ mine: z.boolean(), canOpen: z.boolean() });
export type GroupMenuItemJson = z.infer<typeof groupMenuItemJson>;

/** A group in the list of GET /api/groups (the full group page comes from GET /api/groups/id/{id}). */
export const groupSummaryJson = groupNameJson.extend({ description: z.string() });
export type GroupSummaryJson = z.infer<typeof groupSummaryJson>;

/** The five group file managers (spec §7 /api/group-files/{groupId}/{field}), in the order the admin panel shows them. */
export const GROUP_FILE_FIELDS = ['projects', 'patents', 'technologies', 'courses', 'publications'] as const;
export type GroupFileField = (typeof GROUP_FILE_FIELDS)[number];
/** Group notices and circulars (spec §7 /api/groups/{id}/{notices|circulars}). */
export const GROUP_DOCUMENT_FIELDS = ['notices', 'circulars'] as const;
export type GroupDocumentField = (typeof GROUP_DOCUMENT_FIELDS)[number];

const groupName = plainText({ error: msg('groups.name_required') })
  .min(1, msg('groups.name_required'))
  .max(200, msg('groups.name_too_long'));
const longText = plainText().max(20000, msg('groups.text_too_long'));
/** Without a default, so a field left out of an edit stays as it is. */
const shortText = plainText().max(5000, msg('groups.text_too_long'));

// Messages are the spec's (§5 Groups).
export const createGroupInput = z.object({
  name: groupName,
  description: optionalText,
  vision: optionalText,
  mission: optionalText,
  about: longText.default(''),
  /** User ids moved into the new group (a person belongs to one group). */
  employees: z
    .array(z.uuid(msg('groups.choose_employees_from_list')))
    .max(2000)
    .default([]),
});
export type CreateGroupInput = z.input<typeof createGroupInput>;

/** PUT /api/groups/{id}: the group information editor. Fields left out stay as they are; contactInfo replaces the list. */
export const updateGroupInput = z.object({
  name: groupName,
  description: shortText.optional(),
  about: longText.optional(),
  vision: shortText.optional(),
  mission: shortText.optional(),
  GroupHistoryDetails: longText.optional(),
  contactInfo: z.array(contactInfoInput).max(50, msg('groups.too_many_contacts')).optional(),
});
export type UpdateGroupInput = z.input<typeof updateGroupInput>;

/**
 * A group notice or circular, or a group file (project, patent, ...), as multipart text fields (shared/schemas/unit.ts
 * unitItemInput, as the lab's). The file is checked by the route (required on create). Spec §5 Groups: 'All fields are
 * required' (notices), 'All fields required' (files); a too-long name or description is said so.
 */
const GROUP_TOO_LONG = {
  name: msg('groups.item_name_too_long'),
  description: msg('groups.item_description_too_long'),
};
export const GROUP_DOCUMENT_MESSAGE = msg('units.all_fields_required');
export const GROUP_FILE_MESSAGE = msg('groups.files_required');
/**
 * A group notice or circular: name and description, and an optional 'valid until' date (YYYY-MM-DD) after which it
 * moves to the Archive, as a lab notice does. Files (projects, patents, ...) have no such date.
 */
export const groupDocumentInput = unitItemInput({
  required: GROUP_DOCUMENT_MESSAGE,
  validUntil: true,
  tooLong: GROUP_TOO_LONG,
});
const groupFileInput = unitItemInput({ required: GROUP_FILE_MESSAGE, tooLong: GROUP_TOO_LONG });
/** The input of one list of a group: notices and circulars take the date, the five file kinds do not. */
export const groupItemInputFor = (field: GroupDocumentField | GroupFileField) =>
  (GROUP_DOCUMENT_FIELDS as readonly string[]).includes(field) ? groupDocumentInput : groupFileInput;
export type GroupItemInput = z.input<typeof groupDocumentInput>;

/** A group notice, circular or file: the shape of every unit item (opening its file needs access to the group). */
export const groupItemJson = unitItemJson;
export type GroupItemJson = z.infer<typeof groupItemJson>;

/** A member as the group page, My Group and Manage Members show them. */
export const groupEmployeeJson = z.object({
  _id: z.uuid(),
  name: z.string(),
  email: z.string(),
  photo: z.string().nullable(),
  role: z.enum(ROLES),
  designation: z.string(),
});
export type GroupEmployeeJson = z.infer<typeof groupEmployeeJson>;

/** The whole group (spec §3 Group), as GET /api/groups/id/{id} and GET /api/groups/{id} answer. */
export const groupJson = z.object({
  _id: z.uuid(),
  name: z.string(),
  description: z.string(),
  about: z.string(),
  vision: z.string(),
  mission: z.string(),
  GroupHistoryDetails: z.string(),
  contactInfo: z.array(contactInfoJson),
  employees: z.array(groupEmployeeJson),
  notices: z.array(groupItemJson),
  circulars: z.array(groupItemJson),
  projects: z.array(groupItemJson),
  patents: z.array(groupItemJson),
  technologies: z.array(groupItemJson),
  courses: z.array(groupItemJson),
  publications: z.array(groupItemJson),
  assistantDirectorHistory: z.array(directorEntryJson),
  currentAD: directorEntryJson.nullable(),
  officeOfGroup: z.array(officeMemberJson),
  /** May the signed-in user edit this group (admin, or its current associate director)? */
  canManage: z.boolean(),
  updatedAt: z.string(),
});
export type GroupJson = z.infer<typeof groupJson>;

/** GET /api/groups/my-group (spec §7: name, description, employees). */
export const myGroupJson = z.object({
  _id: z.uuid(),
  name: z.string(),
  description: z.string(),
  employees: z.array(groupEmployeeJson),
});
export type MyGroupJson = z.infer<typeof myGroupJson>;

/** Staff an admin may assign to a group (create form checklist, Manage Members), with the group they are in now. */
export const assignableStaffJson = z.object({
  _id: z.uuid(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  group: groupNameJson.nullable(),
});
export type AssignableStaffJson = z.infer<typeof assignableStaffJson>;
export const staffQuery = z.object({
  q: plainText().max(200).default(''),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** Manage Members: add people to the group (moving them from wherever they are). */
export const addMembersInput = z.object({
  userIds: z
    .array(z.uuid(msg('groups.choose_employees_from_list')))
    .min(1, msg('groups.employees_required'))
    .max(2000),
});
export type AddMembersInput = z.input<typeof addMembersInput>;
/** Manage Members: move one member to another group. */
export const moveMemberInput = z.object({ groupId: z.uuid(msg('groups.group_required')) });
export type MoveMemberInput = z.input<typeof moveMemberInput>;

/** An item of the lab home's Product & Achievements tab. fileUrl is null when the viewer may not open the file. */
export const achievementItemJson = z.object({
  _id: z.uuid(),
  name: z.string(),
  description: z.string(),
  fileUrl: z.string().nullable(),
  hasFile: z.boolean(),
});
export type AchievementItemJson = z.infer<typeof achievementItemJson>;
/** One group with its projects, patents, technologies, publications and courses (lab home, Product & Achievements). */
export const groupAchievementsJson = z.object({
  _id: z.uuid(),
  name: z.string(),
  projects: z.array(achievementItemJson),
  patents: z.array(achievementItemJson),
  technologies: z.array(achievementItemJson),
  courses: z.array(achievementItemJson),
  publications: z.array(achievementItemJson),
});
export type GroupAchievementsJson = z.infer<typeof groupAchievementsJson>;
