import { z } from 'zod';

import { CADRES, MOBILE_DIGITS, PASSWORD_MIN_LENGTH, REGISTER_ROLES } from '../constants.ts';
import { msg } from '../messages/index.ts';
import { optionalDate, optionalText, plainText } from './common.ts';
import { userJson } from './user.ts';

// Messages are the spec's, to the letter (§5 Registration, Login).
export const emailField = plainText({ error: msg('auth.email_required') })
  .min(1, msg('auth.email_required'))
  .max(254, msg('common.email_invalid'))
  .pipe(z.email(msg('common.email_invalid')))
  .transform((e) => e.toLowerCase());

const passwordField = z
  .string({ error: msg('auth.password_required') })
  .min(1, msg('auth.password_required'))
  .min(PASSWORD_MIN_LENGTH, msg('auth.password_too_short', { min: PASSWORD_MIN_LENGTH }))
  .max(200, msg('auth.password_too_long'));

export const registerInput = z
  .object({
    email: emailField,
    password: passwordField,
    role: z.enum(REGISTER_ROLES, msg('auth.role_required')).default('employee'),
    about: optionalText,
    personalDetails: z.object(
      {
        name: plainText({ error: msg('common.name_required') })
          .min(1, msg('common.name_required'))
          .max(200),
        dob: optionalDate,
        mobile: plainText()
          .default('')
          .refine((m) => m === '' || new RegExp(`^\\d{${MOBILE_DIGITS}}$`).test(m), msg('common.mobile_invalid')),
        address: optionalText,
      },
      { error: msg('common.name_required') },
    ),
    professionalDetails: z
      .object({
        designation: optionalText,
        cadre: z.union([z.enum(CADRES), z.literal('')]).default(''),
        intercom: optionalText,
        internetEmail: optionalText,
        dronaEmail: optionalText,
        pis: optionalText,
        aebasId: optionalText,
      })
      .default({ designation: '', cadre: '', intercom: '', internetEmail: '', dronaEmail: '', pis: '', aebasId: '' }),
    employmentPeriod: z.object({ from: optionalDate, to: optionalDate }).default({ from: null, to: null }),
  })
  .superRefine((v, ctx) => {
    if (v.professionalDetails.cadre && !v.professionalDetails.designation) {
      ctx.addIssue({
        code: 'custom',
        message: msg('common.designation_required'),
        path: ['professionalDetails', 'designation'],
      });
    }
  });
export type RegisterInput = z.input<typeof registerInput>;

export const loginInput = z.object({
  email: plainText({ error: msg('auth.email_required') })
    .min(1, msg('auth.email_required'))
    .max(254)
    .transform((e) => e.toLowerCase()),
  password: z
    .string({ error: msg('auth.password_required') })
    .min(1, msg('auth.password_required'))
    .max(200),
});
export type LoginInput = z.input<typeof loginInput>;

export const loginJson = z.object({ token: z.string(), user: userJson });
export type LoginJson = z.infer<typeof loginJson>;

export const approveUserInput = z.object({
  labId: z.uuid(msg('admin.lab_required')).nullable().optional(),
  groupId: z.uuid(msg('admin.group_and_role_required')),
  role: z.enum(['employee', 'director', 'associate_director', 'admin'], msg('admin.group_and_role_required')),
});
export type ApproveUserInput = z.input<typeof approveUserInput>;

/**
 * The ways a person may give the fresh check before classified letters (decision 066): their second factor where they
 * have one (`totp`, `passkey`, `recovery`), else their `password`; `sign_in` when neither can be asked here (an SSO
 * account without a factor signs in again).
 */
export const STEP_UP_METHODS = ['password', 'totp', 'passkey', 'recovery', 'sign_in'] as const;
export type StepUpMethod = (typeof STEP_UP_METHODS)[number];

/** POST /api/auth/step-up: the password, or a code (an authenticator's or a recovery code), not both. */
export const stepUpInput = z
  .object({
    password: z.string().max(200, msg('auth.password_too_long')).optional(),
    code: z.string().trim().max(64, msg('auth.step_up_code_too_long')).optional(),
  })
  .superRefine((v, ctx) => {
    const given = [v.password ? 'password' : null, v.code ? 'code' : null].filter(Boolean);
    if (given.length === 0)
      ctx.addIssue({ code: 'custom', message: msg('auth.step_up_answer_required'), path: ['password'] });
    if (given.length === 2) ctx.addIssue({ code: 'custom', message: msg('auth.step_up_one_answer'), path: ['code'] });
  });
export type StepUpInput = z.infer<typeof stepUpInput>;

export const stepUpJson = z.object({ message: z.string(), verifiedAt: z.string() });
export type StepUpJson = z.infer<typeof stepUpJson>;

/** One live session of the signed-in person (GET /api/auth/sessions; My Account → Security). */
export const sessionJson = z.object({
  _id: z.string(),
  current: z.boolean(),
  method: z.enum(['password', 'directory', 'sso']),
  secondFactor: z.enum(['totp', 'passkey', 'recovery']).nullable(),
  userAgent: z.string(),
  address: z.string(),
  createdAt: z.string(),
  verifiedAt: z.string(),
});
export type SessionJson = z.infer<typeof sessionJson>;
