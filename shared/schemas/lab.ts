import { z } from 'zod';

import { msg } from '../messages/index.ts';
import { optionalText, plainText } from './common.ts';
import {
  contactInfoInput,
  contactInfoJson,
  directorEntryJson,
  officeMemberInput,
  officeMemberJson,
  unitItemInput,
  unitItemJson,
} from './unit.ts';

// Messages are the spec's where it gives one (§5 Lab); the others say plainly which field is missing. Contact info,
// the director's office and director history entries share their shapes with the groups (./unit.ts).

/** Text that must not be blank, with the sentence to show when it is. */
const requiredText = (message: string, max = 5000) => plainText({ error: message }).min(1, message).max(max);

// ---- requests -------------------------------------------------------------------------------------------------

/** Add New Lab Information (spec §2, §5 "New lab: name required"). */
export const createLabInput = z.object({
  name: requiredText(msg('labs.name_required'), 300),
  mission: optionalText,
  vision: optionalText,
  about: optionalText,
  domain: optionalText,
});
export type CreateLabInput = z.input<typeof createLabInput>;

/**
 * Update Lab Information (spec §5 Lab: name, domain, vision, mission, about and history are required). Contact info
 * and the director's office, when sent, replace the lab's lists as a whole.
 */
export const updateLabInput = z.object({
  name: requiredText(msg('labs.name_required'), 300),
  domain: requiredText(msg('labs.domain_required')),
  vision: requiredText(msg('labs.vision_required')),
  mission: requiredText(msg('labs.mission_required')),
  about: requiredText(msg('labs.about_required'), 20000),
  LabHistoryDetails: requiredText(msg('labs.history_required'), 20000),
  contactInfo: z.array(contactInfoInput).max(50).optional(),
  officeOfDirector: z.array(officeMemberInput).max(100).optional(),
});
export type UpdateLabInput = z.input<typeof updateLabInput>;

/** The four lists of a lab that hold {name, description, file} (spec §7: POST /api/labs/{id}/{kind}). */
export const LAB_ITEM_KINDS = ['notices', 'circulars', 'products', 'advertisements'] as const;
export type LabItemKind = (typeof LAB_ITEM_KINDS)[number];
/** Notices and circulars carry an optional 'valid until' date; products and advertisements do not. */
export const isLabDocumentKind = (kind: LabItemKind) => kind === 'notices' || kind === 'circulars';

/** Notice or circular: name, description and (on create) file are all required, else 'All fields are required'. */
export const labDocumentInput = unitItemInput({ required: msg('units.all_fields_required'), validUntil: true });
/** Product or advertisement: name and description are required; the file (pdf or image) is optional. */
export const labProductInput = unitItemInput({ required: msg('labs.products_required') });
export const labItemInputFor = (kind: LabItemKind) => (isLabDocumentKind(kind) ? labDocumentInput : labProductInput);
export type LabItemInput = z.input<typeof labDocumentInput>;

// ---- responses ------------------------------------------------------------------------------------------------

/** A lab notice, circular, product or advertisement (spec §3 Lab): the shape of every unit item. */
export const labItemJson = unitItemJson;
export type LabItemJson = z.infer<typeof labItemJson>;

export const labDocumentsJson = z.object({ notices: z.array(labItemJson), circulars: z.array(labItemJson) });
export type LabDocumentsJson = z.infer<typeof labDocumentsJson>;

/** The lab without its lists (GET /api/labs, POST /api/labs). */
export const labSummaryJson = z.object({
  _id: z.uuid(),
  name: z.string(),
  domain: z.string(),
  about: z.string(),
  vision: z.string(),
  mission: z.string(),
  LabHistoryDetails: z.string(),
  updatedAt: z.string(),
});
export type LabSummaryJson = z.infer<typeof labSummaryJson>;

/** The whole lab record (GET /api/labs/{id}, spec §3 Lab). Photos page separately: GET /api/labs/{id}/photos. */
export const labJson = labSummaryJson.extend({
  contactInfo: z.array(contactInfoJson),
  directorHistory: z.array(directorEntryJson),
  currentDirector: directorEntryJson.nullable(),
  officeOfDirector: z.array(officeMemberJson),
  notices: z.array(labItemJson),
  circulars: z.array(labItemJson),
  products: z.array(labItemJson),
  advertisements: z.array(labItemJson),
  /**
   * The latest change to anything the lab's public tabs show (the lab's fields, contact and office lists saved with them,
   * its director history, notices, circulars, products, advertisements): their "Last updated" (decision 019).
   */
  lastUpdated: z.string(),
});
export type LabJson = z.infer<typeof labJson>;
