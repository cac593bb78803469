import { z } from 'zod';

import { CONTACT_TYPES } from '../constants.ts';
import { msg } from '../messages/index.ts';
import { itemAcknowledgementJson } from './acknowledgements.ts';
import { isoDate, optionalDate, optionalText, plainText } from './common.ts';

/**
 * Shapes the lab and its research groups share (spec §3: a group's assistantDirectorHistory has "the same shape as a
 * director entry"; both have contactInfo and an office table). One definition for the lab and group screens and routes.
 */

const requiredText = (message: string, max = 200) => plainText({ error: message }).min(1, message).max(max);

/** Contact Us entry: type (label): value. Spec §5 Lab: a value is required, the label is optional. */
export const contactInfoInput = z.object({
  type: z.enum(CONTACT_TYPES, msg('units.contact_type_required')),
  label: plainText().max(200).default(''),
  value: requiredText(msg('units.contact_value_required'), 1000),
});
export type ContactInfoInput = z.input<typeof contactInfoInput>;
export const contactInfoJson = z.object({
  _id: z.uuid(),
  type: z.enum(CONTACT_TYPES),
  label: z.string(),
  value: z.string(),
});
export type ContactInfoJson = z.infer<typeof contactInfoJson>;

/** O/o Director and O/o Group Leader rows. Spec §5 Groups: name and designation required; the rest optional. */
export const officeMemberInput = z.object({
  name: requiredText(msg('common.name_required')),
  designation: requiredText(msg('common.designation_required')),
  contactNumber: plainText().max(50, msg('units.contact_number_too_long')).default(''),
  email: plainText()
    .max(254, msg('common.email_invalid'))
    .default('')
    .refine((e) => e === '' || z.email().safeParse(e).success, msg('common.email_invalid')),
});
export type OfficeMemberInput = z.input<typeof officeMemberInput>;
export const officeMemberJson = z.object({
  _id: z.uuid(),
  name: z.string(),
  designation: z.string(),
  contactNumber: z.string(),
  email: z.string(),
});
export type OfficeMemberJson = z.infer<typeof officeMemberJson>;

/**
 * A director (lab) or associate-director (group) history entry, as multipart text fields. Spec §5 Lab: a user or a
 * name is required ('Please select a user or enter a name'); from is required, to is optional (blank means present).
 * A blank designation takes the default of its kind (spec §9), which the server fills in.
 */
export const directorEntryInput = z
  .object({
    user: z
      .union([z.uuid(msg('director_history.user_or_name_required')), z.literal('')])
      .optional()
      .transform((v) => v || null),
    name: plainText().max(200, msg('director_history.name_too_long')).default(''),
    designation: plainText().max(200, msg('director_history.designation_too_long')).default(''),
    from: plainText({ error: msg('director_history.from_required') })
      .min(1, msg('director_history.from_required'))
      .pipe(isoDate()),
    to: optionalDate,
    about: optionalText,
  })
  .superRefine((v, ctx) => {
    if (!v.user && !v.name)
      ctx.addIssue({ code: 'custom', message: msg('director_history.user_or_name_required'), path: ['name'] });
    if (v.to && v.to < v.from)
      ctx.addIssue({ code: 'custom', message: msg('director_history.end_before_start'), path: ['to'] });
  });
export type DirectorEntryInput = z.input<typeof directorEntryInput>;

export const directorEntryJson = z.object({
  _id: z.uuid(),
  /** The linked staff member, when the entry names one. */
  user: z.object({ _id: z.uuid(), name: z.string(), photo: z.string().nullable(), about: z.string() }).nullable(),
  /** The manual name, else the linked user's name. */
  name: z.string(),
  designation: z.string(),
  from: z.string(),
  /** null: still in office ('Present'). */
  to: z.string().nullable(),
  about: z.string(),
  image: z.string().nullable(),
});
export type DirectorEntryJson = z.infer<typeof directorEntryJson>;

// ---- items: the lab's and a group's notices, circulars and files ------------------------------------------------

/**
 * The text fields of a lab or group item (a notice, circular, product, advertisement, or a group file), as multipart
 * text fields; the file is checked by the route. What differs between the lists is a parameter: the sentence a blank
 * field shows (spec §5 Lab and Groups word it per list), whether the item carries an optional 'valid until' date
 * (notices and circulars), and the sentences for a too-long name or description (the group lists say them; the lab's
 * keep zod's own).
 */
export function unitItemInput(opts: UnitItemOptions & { validUntil: true }): ReturnType<typeof datedItemFields>;
export function unitItemInput(opts: UnitItemOptions & { validUntil?: false }): ReturnType<typeof itemFields>;
export function unitItemInput({ validUntil, ...opts }: UnitItemOptions & { validUntil?: boolean }) {
  return validUntil ? datedItemFields(opts) : itemFields(opts);
}
interface UnitItemOptions {
  required: string;
  tooLong?: { name: string; description: string };
}
function itemFields({ required, tooLong }: UnitItemOptions) {
  const text = (max: number, tooLongMessage?: string) =>
    plainText({ error: required }).min(1, required).max(max, tooLongMessage);
  return z.object({ name: text(300, tooLong?.name), description: text(5000, tooLong?.description) });
}
const datedItemFields = (opts: UnitItemOptions) => itemFields(opts).extend({ validUntil: optionalDate });

/** A lab or group item as the API answers it (spec §3 Lab and Group: {name, description, file}). */
export const unitItemJson = z.object({
  _id: z.uuid(),
  name: z.string(),
  description: z.string(),
  /** Relative link to the portal's own origin (a group's needs sign-in and access to the group). */
  fileUrl: z.string().nullable(),
  /** The name the file was uploaded with, for the link text. */
  fileName: z.string().nullable(),
  /** Notices and circulars: the last day they are current (YYYY-MM-DD), null for no expiry; always null for files. */
  validUntil: z.string().nullable(),
  /** True once 'valid until' has passed: shown as archived, left out of the News Flash, listed in the Archive. */
  expired: z.boolean(),
  createdAt: z.string(),
  /** When it was last changed: shown as "Last updated" on every notice (decision 019). */
  updatedAt: z.string(),
  /**
   * A notice or circular published with "requires acknowledgement" (decision 074): its request's deadline and
   * audience; null otherwise, and always null for products, advertisements and group files.
   */
  acknowledgement: itemAcknowledgementJson.nullable(),
});
export type UnitItemJson = z.infer<typeof unitItemJson>;
