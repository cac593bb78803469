import { z } from 'zod';

import {
  APPROVAL_ROLES,
  BLOOD_GROUPS,
  CADRES,
  DEFAULT_PAGE_SIZE,
  DESIGNATIONS,
  GENDERS,
  MARITAL_STATUSES,
  MAX_PAGE_SIZE,
  MOBILE_DIGITS,
  PASSWORD_MIN_LENGTH,
  ROLES,
  USER_STATUSES,
} from '../constants.ts';
import { withoutBidiControls } from '../format.ts';
import { msg } from '../messages/index.ts';
import { isoDate, optionalDate, optionalText, plainText } from './common.ts';

/** A document an administrator keeps on a user's record (spec §3 User.documents). */
export const userDocumentJson = z.object({
  _id: z.uuid(),
  filename: z.string(),
  url: z.string(),
  uploadedAt: z.string(),
});
export type UserDocumentJson = z.infer<typeof userDocumentJson>;

/** The portal's languages: English and Hindi. */
export const LANGUAGES = ['en', 'hi'] as const;

/** A user as the API shows it (spec §3 User). Never carries the password hash. */
export const userJson = z.object({
  _id: z.uuid(),
  email: z.string(),
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  statusReason: z.string().nullable(),
  /** Where the person proves who they are (decision 062): a directory account changes its password there. */
  authSource: z.enum(['local', 'directory', 'sso']),
  /** The person's language (PUT /api/users/me/language): their mail is written in it. */
  language: z.enum(LANGUAGES),
  /** Whether the person chose `language` (decision 102): then the portal opens in it at sign-in, whatever the browser. */
  languageChosen: z.boolean(),
  photo: z.string().nullable(),
  about: z.string(),
  labId: z.uuid().nullable(),
  group: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
  personalDetails: z.object({
    name: z.string(),
    fullName: z.string(),
    dob: z.string().nullable(),
    mobile: z.string(),
    address: z.string(),
    gender: z.string(),
    maritalStatus: z.string(),
    bloodGroup: z.string(),
    emergencyContact: z.object({ name: z.string(), relationship: z.string(), mobile: z.string() }),
  }),
  professionalDetails: z.object({
    designation: z.string(),
    cadre: z.string(),
    intercom: z.string(),
    internetEmail: z.string(),
    dronaEmail: z.string(),
    pis: z.string(),
    aebasId: z.string(),
    joiningDate: z.string().nullable(),
    skills: z.array(z.string()),
    qualifications: z.array(z.string()),
  }),
  employmentPeriod: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
  socialLinks: z.object({ linkedin: z.string(), twitter: z.string(), facebook: z.string(), github: z.string() }),
  createdAt: z.string(),
});
export type UserJson = z.infer<typeof userJson>;

// ---- people: profile, password, directory, approval, Manage Users, activity logs (decision 005) -----------------------

/**
 * A card of the employee directory and an entry of GET /api/users: what any member of staff may see of a colleague.
 * Personal details beyond the name (date of birth, mobile, address, blood group...) stay with the owner and admins.
 */
export const directoryUserJson = z.object({
  _id: z.uuid(),
  email: z.string(),
  role: z.enum(ROLES),
  photo: z.string().nullable(),
  group: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
  personalDetails: z.object({ name: z.string(), fullName: z.string() }),
  professionalDetails: z.object({ designation: z.string(), cadre: z.string(), intercom: z.string() }),
});
export type DirectoryUserJson = z.infer<typeof directoryUserJson>;

/**
 * The whole profile with the documents kept on the record: GET /api/users/{id} (the owner, an admin) and a row of
 * Manage Users.
 */
export const profileJson = userJson.extend({ documents: z.array(userDocumentJson) });
/**
 * Manage Users (admins only): a profile, whether it is cleared for Confidential and Secret letters, and the
 * single sign-on provider (issuer) it is linked to, or null (decision 090).
 */
export const managedUserJson = profileJson.extend({
  classifiedClearance: z.boolean(),
  ssoIssuer: z.string().nullable(),
});
export type ManagedUserJson = z.infer<typeof managedUserJson>;
export type ProfileJson = z.infer<typeof profileJson>;

/** A close group the person belongs to, as listed on their user record (spec §3 User: closeGroup). */
export const userCloseGroupJson = z.object({
  _id: z.uuid(),
  groupName: z.string(),
  groupPurpose: z.string(),
  groupDuration: z.object({ from: z.string(), to: z.string() }),
});
export type UserCloseGroupJson = z.infer<typeof userCloseGroupJson>;

/** The user record of GET and PUT /api/users/{id}: the profile, its documents and its close groups (spec §3 User). */
export const userRecordJson = profileJson.extend({ closeGroup: z.array(userCloseGroupJson) });
export type UserRecordJson = z.infer<typeof userRecordJson>;

/** A page of a list that pages on the server. */
export const pageJson = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number().int() });

const optionalMobile = plainText()
  .default('')
  .refine((m) => m === '' || new RegExp(`^\\d{${MOBILE_DIGITS}}$`).test(m), msg('common.mobile_invalid'));
/** One of a fixed list, or '' for not given. */
const optionalChoice = <T extends readonly [string, ...string[]]>(choices: T, message: string) =>
  z.union([z.enum(choices, message), z.literal('')], message).default('');
const optionalLink = plainText()
  .max(500, msg('users.link_invalid'))
  .default('')
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), msg('users.link_invalid'));
/** A list of short texts: each trimmed, blanks dropped (spec §5: skills are comma-separated text, trimmed). */
const textList = z
  .array(z.string().max(200, msg('users.list_entry_too_long')))
  .max(50, msg('users.list_too_long'))
  .default([])
  .transform((list) => list.map((s) => withoutBidiControls(s).trim()).filter(Boolean));
/** Splits comma-separated text into a trimmed list without blanks (the profile form's skills box). */
export const splitCommaList = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export const personalDetailsInput = z.object(
  {
    name: plainText({ error: msg('common.name_required') })
      .min(1, msg('common.name_required'))
      .max(200, msg('users.name_too_long')),
    dob: optionalDate,
    mobile: optionalMobile,
    address: optionalText,
    gender: optionalChoice(GENDERS, msg('users.gender_invalid')),
    maritalStatus: optionalChoice(MARITAL_STATUSES, msg('users.marital_status_invalid')),
    bloodGroup: optionalChoice(BLOOD_GROUPS, msg('users.blood_group_invalid')),
    emergencyContact: z
      .object({ name: optionalText, relationship: optionalText, mobile: optionalMobile })
      .default({ name: '', relationship: '', mobile: '' }),
  },
  { error: msg('common.name_required') },
);

export const professionalDetailsInput = z.object({
  cadre: optionalChoice(CADRES, msg('users.cadre_invalid')),
  designation: plainText().max(200).default(''),
  intercom: optionalText,
  internetEmail: optionalText,
  dronaEmail: optionalText,
  pis: optionalText,
  aebasId: optionalText,
  joiningDate: optionalDate,
  skills: textList,
  qualifications: textList,
});

/**
 * PUT /api/users/{id} (spec §7): {personalDetails, professionalDetails, about, employmentPeriod, socialLinks}. Each
 * section sent replaces that section (a field left out of it is cleared); a section left out is kept. Email, role and
 * password are not changed here. Rules of spec §5: a chosen cadre needs a designation, from that cadre's list unless
 * the cadre is Other (free text).
 */
export const updateProfileInput = z
  .object({
    personalDetails: personalDetailsInput.optional(),
    professionalDetails: professionalDetailsInput.optional(),
    about: plainText().max(5000, msg('users.about_too_long')).optional(),
    employmentPeriod: z.object({ from: optionalDate, to: optionalDate }).optional(),
    socialLinks: z
      .object({ linkedin: optionalLink, twitter: optionalLink, facebook: optionalLink, github: optionalLink })
      .optional(),
  })
  .superRefine((v, ctx) => {
    const p = v.professionalDetails;
    if (p?.cadre) {
      const allowed = p.cadre === 'Other' ? null : DESIGNATIONS[p.cadre];
      if (!p.designation) {
        ctx.addIssue({
          code: 'custom',
          message: msg('common.designation_required'),
          path: ['professionalDetails', 'designation'],
        });
      } else if (allowed && !allowed.includes(p.designation)) {
        ctx.addIssue({
          code: 'custom',
          message: msg('users.designation_not_of_cadre'),
          path: ['professionalDetails', 'designation'],
        });
      }
    }
    const e = v.employmentPeriod;
    if (e?.from && e.to && e.from > e.to) {
      ctx.addIssue({
        code: 'custom',
        message: msg('users.employment_end_before_start'),
        path: ['employmentPeriod', 'to'],
      });
    }
  });
export type UpdateProfileInput = z.input<typeof updateProfileInput>;

const newPasswordField = z
  .string({ error: msg('auth.password_required') })
  .min(1, msg('auth.password_required'))
  .min(PASSWORD_MIN_LENGTH, msg('auth.password_too_short', { min: PASSWORD_MIN_LENGTH }))
  .max(200, msg('auth.password_too_long'));

/** A signed-in user changes their own password; the current one is required. */
export const changePasswordInput = z
  .object({
    currentPassword: z
      .string({ error: msg('users.current_password_required') })
      .min(1, msg('users.current_password_required'))
      .max(200),
    newPassword: newPasswordField,
  })
  .refine((v) => v.currentPassword !== v.newPassword, {
    message: msg('users.new_password_same'),
    path: ['newPassword'],
  });
export type ChangePasswordInput = z.input<typeof changePasswordInput>;

/** POST /api/auth/expired-password (decision 117): the sign-in's ticket and the new password. */
export const expiredPasswordInput = z.object({
  ticket: z
    .string({ error: msg('auth.password_change_ticket_invalid') })
    .min(1, msg('auth.password_change_ticket_invalid'))
    .max(4096, msg('auth.password_change_ticket_invalid')),
  newPassword: newPasswordField,
});
export type ExpiredPasswordInput = z.input<typeof expiredPasswordInput>;

/** An administrator sets a new password for a user (who then signs in with it). */
export const resetPasswordInput = z.object({ newPassword: newPasswordField });
export type ResetPasswordInput = z.input<typeof resetPasswordInput>;

/** PUT /api/users/me/language: the language the person chose, which their mail is written in. */
export const languageInput = z.object({ language: z.enum(LANGUAGES, msg('users.language_invalid')) });
export type LanguageInput = z.input<typeof languageInput>;

/** The answer to a password change: a fresh token, since every earlier one stops working. */
export const passwordChangedJson = z.object({ message: z.string(), token: z.string() });

/** A query-string value where an empty one means "not given" (a cleared filter box sends `?role=`). */
const blankIsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const optionalSearch = plainText().max(200, msg('users.search_too_long')).optional();
const pagingFields = {
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  offset: z.coerce.number().int().min(0).optional(),
};

/**
 * GET /api/users: the staff list, filtered by role, group and a search of name and email. Without limit/offset it
 * answers the whole (filtered) list as an array, as spec §7 has it; with either it answers a page {items, total}
 * (decision 'people').
 */
export const listUsersQuery = z.object({
  role: blankIsAbsent(z.enum(ROLES, msg('users.role_invalid'))),
  groupId: blankIsAbsent(z.uuid(msg('users.group_invalid'))),
  q: optionalSearch,
  ...pagingFields,
});
export type ListUsersQuery = z.input<typeof listUsersQuery>;

/** GET /admin/users (Manage Users): every account, with the status filter as well; always a page. */
export const manageUsersQuery = z.object({
  role: blankIsAbsent(z.enum(ROLES, msg('users.role_invalid'))),
  groupId: blankIsAbsent(z.uuid(msg('users.group_invalid'))),
  status: blankIsAbsent(z.enum(USER_STATUSES, msg('users.status_invalid'))),
  q: optionalSearch,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ManageUsersQuery = z.input<typeof manageUsersQuery>;

/** Reject a pending registration: the reason is kept and told to the person when they try to sign in. */
export const rejectUserInput = z.object({
  reason: plainText({ error: msg('users.reject_reason_required') })
    .min(1, msg('users.reject_reason_required'))
    .max(500, msg('users.reason_too_long')),
});
export type RejectUserInput = z.input<typeof rejectUserInput>;

/** Manage Users: change a user's role and group (null group: none). */
export const updateUserAccessInput = z.object({
  role: z.enum(APPROVAL_ROLES, msg('users.role_invalid')),
  groupId: z.uuid(msg('users.group_invalid')).nullable(),
});
export type UpdateUserAccessInput = z.input<typeof updateUserAccessInput>;

/** Manage Users: clear an account for Confidential and Secret letters, or withdraw the clearance (decision 020). */
export const classifiedClearanceInput = z.object({
  cleared: z.boolean({ error: msg('users.clearance_required') }),
});
export type ClassifiedClearanceInput = z.input<typeof classifiedClearanceInput>;

/** Manage Users: deactivate an account, with an optional reason kept on the record. */
export const deactivateUserInput = z.object({
  reason: plainText().max(500, msg('users.reason_too_long')).default(''),
});
export type DeactivateUserInput = z.input<typeof deactivateUserInput>;

/**
 * An entry of the activity log (spec §3 Activity log: _id, userId {name, email}, action, timestamp). `action` is the
 * English sentence; `code` and `params` say the same as a code of the `activity` catalogue, for a reader in another
 * language (decision 060): null on entries written before actions had codes.
 */
export const activityLogJson = z.object({
  _id: z.uuid(),
  userId: z.object({ _id: z.uuid(), name: z.string(), email: z.string() }).nullable(),
  action: z.string(),
  code: z.string().nullable(),
  params: z.record(z.string(), z.json()).nullable(),
  timestamp: z.string(),
  target: z.object({ type: z.string(), id: z.string() }).nullable(),
});
export type ActivityLogJson = z.infer<typeof activityLogJson>;
/** A page of the logs: `total` is counted up to 1,000 matches, and `capped` says there are more (decision 005). */
export const activityLogPageJson = pageJson(activityLogJson).extend({ capped: z.boolean() });
export type ActivityLogPageJson = z.infer<typeof activityLogPageJson>;

const dayField = blankIsAbsent(isoDate());
/**
 * GET /admin/logs: newest first; search over name, email and action; filter by user and a date range (days in India
 * time, both ends included). Without limit/offset it answers an array of the newest entries (at most MAX_PAGE_SIZE);
 * with either, a page {items, total} (decision 'people').
 */
export const listLogsQuery = z
  .object({
    q: optionalSearch,
    userId: blankIsAbsent(z.uuid(msg('users.log_user_invalid'))),
    from: dayField,
    to: dayField,
    ...pagingFields,
  })
  .refine((v) => !(v.from && v.to && v.from > v.to), {
    message: msg('users.log_dates_reversed'),
    path: ['from'],
  });
export type ListLogsQuery = z.input<typeof listLogsQuery>;

/** The `:userId` of the admin routes that act on one account (Manage Users, approvals, single sign-on links). */
export const adminUserIdParam = z.object({ userId: z.uuid(msg('admin.invalid_user_id')) });
