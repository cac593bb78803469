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

/** POST /api/auth/sso/exchange: the one-time code of `/login?sso=<code>` (decision 063). */
export const ssoExchangeInput = z.object({
  code: z
    .string({ error: msg('auth.sso_code_invalid') })
    .min(1, msg('auth.sso_code_invalid'))
    .max(200, msg('auth.sso_code_invalid')),
});
export type SsoExchangeInput = z.infer<typeof ssoExchangeInput>;

/** GET /api/auth/options: what the login page offers besides the password (single sign-on's button, decision 063). */
export const authOptionsJson = z.object({
  sso: z.object({ label: z.object({ en: z.string(), hi: z.string() }) }).nullable(),
});
export type AuthOptionsJson = z.infer<typeof authOptionsJson>;

/** POST /api/auth/logout: `logoutUrl` is the provider's end-session address after a single sign-on session. */
export const logoutJson = z.object({ message: z.string(), logoutUrl: z.string().optional() });
export type LogoutJson = z.infer<typeof logoutJson>;

export const approveUserInput = z.object({
  labId: z.uuid(msg('admin.lab_required')).nullable().optional(),
  groupId: z.uuid(msg('admin.group_and_role_required')),
  role: z.enum(['employee', 'director', 'associate_director', 'admin'], msg('admin.group_and_role_required')),
});
export type ApproveUserInput = z.input<typeof approveUserInput>;
