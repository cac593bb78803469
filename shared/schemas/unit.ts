import { z } from 'zod';
import { msg } from '../messages/index.ts';
import { CONTACT_TYPES } from '../constants.ts';
import { isoDate, optionalDate, optionalText, plainText } from './common.ts';

/**
 * Shapes the lab and its research groups share (spec §3: a group's assistantDirectorHistory has "the same shape as a
 * director entry"; both have contactInfo and an office table). One definition for the lab and group screens and routes.
 */

const requiredText = (message: string, max = 200) => plainText({ error: message }).min(1, message).max(max);

/** Contact Us entry: type (label): value. Spec §5 Lab: a value is required, the label is optional. */
export const contactInfoInput = z.object({
  type: z.enum(CONTACT_TYPES, 'Please choose a contact type.'),
  label: plainText().max(200).default(''),
  value: requiredText('A contact value is required.', 1000),
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
  name: requiredText('Name is required.'),
  designation: requiredText('Designation is required.'),
  contactNumber: plainText().max(50, 'Contact number is too long.').default(''),
  email: plainText()
    .max(254, 'Invalid email address.')
    .default('')
    .refine((e) => e === '' || z.email().safeParse(e).success, 'Invalid email address.'),
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
