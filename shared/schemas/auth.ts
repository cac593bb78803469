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

/** POST /api/auth/forgot-password (decision 077): the account's email. */
export const forgotPasswordInput = z.object({ email: emailField });
export type ForgotPasswordInput = z.input<typeof forgotPasswordInput>;

/** POST /api/auth/reset-password: the token of the mailed link, and the new password by the portal's rules. */
export const passwordResetInput = z.object({
  token: z
    .string({ error: msg('auth.reset_token_required') })
    .trim()
    .min(1, msg('auth.reset_token_required'))
    .max(200, msg('auth.reset_link_invalid')),
  password: passwordField,
});
export type PasswordResetInput = z.input<typeof passwordResetInput>;

/** A started session: its token and the signed-in person (spec §7's answer to POST /api/auth/login). */
export const sessionJson = z.object({ token: z.string(), user: userJson });
export type SessionJson = z.infer<typeof sessionJson>;

/** The kinds of second factor (decision 064): an authenticator app, a passkey, a one-time recovery code. */
export const SECOND_FACTOR_METHODS = ['totp', 'passkey', 'recovery'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/**
 * The password was right, but this person must also pass a second factor (MFA_REQUIRED_ROLES, MFA_FOR_CLEARED):
 * no token yet. `auth.second_factor_required`: send a code with the ticket to POST /api/auth/second-factor/verify;
 * `auth.second_factor_enrolment_required`: set one up first (POST /api/auth/second-factor/totp/enrol with the ticket).
 * The ticket lasts 5 minutes. `methods`: what this person can use (or, for enrolment, set up).
 */
export const secondFactorStepJson = z.object({
  code: z.enum(['auth.second_factor_required', 'auth.second_factor_enrolment_required']),
  ticket: z.string(),
  methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
});
export type SecondFactorStepJson = z.infer<typeof secondFactorStepJson>;

/**
 * The password was right but older than PASSWORD_MAX_AGE_DAYS (decision 117): no token yet. Send a new password with
 * the ticket (10 minutes) to POST /api/auth/expired-password, which answers as a sign-in does.
 */
export const passwordChangeStepJson = z.object({
  code: z.literal('auth.password_expired'),
  ticket: z.string(),
  days: z.number().int(),
});
export type PasswordChangeStepJson = z.infer<typeof passwordChangeStepJson>;
export type SignInStepJson = SecondFactorStepJson | PasswordChangeStepJson;

/**
 * The answer to a sign-in: a session, the second-factor step (only where an installation requires one), or the
 * change of an expired password (only under PASSWORD_MAX_AGE_DAYS).
 */
export const loginJson = z.union([sessionJson, secondFactorStepJson, passwordChangeStepJson]);
export type LoginJson = z.infer<typeof loginJson>;

/** Whether a sign-in answer is a step (a second factor, an expired password) rather than a session. */
export const isSignInStep = (answer: LoginJson): answer is SignInStepJson => 'ticket' in answer;
/** Whether a sign-in answer is the second-factor step. */
export const isSecondFactorStep = (answer: LoginJson): answer is SecondFactorStepJson => 'methods' in answer;

const secondFactorCode = z
  .string({ error: msg('auth.second_factor_code_required') })
  .trim()
  .min(1, msg('auth.second_factor_code_required'))
  .max(40, msg('auth.second_factor_code_invalid'));
const ticketField = z.string().min(1).max(8000);

/** POST /api/auth/second-factor/verify: the ticket of the sign-in (or none, signed in) and a TOTP or recovery code. */
export const secondFactorVerifyInput = z.object({ ticket: ticketField.optional(), code: secondFactorCode });
export type SecondFactorVerifyInput = z.input<typeof secondFactorVerifyInput>;

/** POST /api/auth/second-factor/totp/enrol: the ticket at sign-in, nothing when signed in. */
export const totpEnrolInput = z.object({ ticket: ticketField.optional() }).default({});
export const totpEnrolJson = z.object({ secret: z.string(), otpauthUrl: z.string(), qrDataUrl: z.string() });
export type TotpEnrolJson = z.infer<typeof totpEnrolJson>;

/** POST /api/auth/second-factor/totp/confirm: a code from the app just set up, and a name for it. */
export const totpConfirmInput = z.object({
  ticket: ticketField.optional(),
  code: secondFactorCode,
  label: plainText().max(60, msg('auth.second_factor_label_too_long')).default(''),
});
export type TotpConfirmInput = z.input<typeof totpConfirmInput>;
/** At sign-in: the session and the first recovery codes; signed in: the recovery codes of a first factor, or nothing. */
export const totpConfirmJson = z.object({
  token: z.string().optional(),
  user: userJson.optional(),
  recoveryCodes: z.array(z.string()).optional(),
});
export type TotpConfirmJson = z.infer<typeof totpConfirmJson>;

/** POST /api/auth/second-factor/recovery-codes: a fresh code proves it is the person. */
/** New recovery codes: a current code, or none in a session with a step-up (decision 094). */
export const recoveryCodesInput = z.object({ code: secondFactorCode.optional() });
export const recoveryCodesJson = z.object({ recoveryCodes: z.array(z.string()) });

/** GET /api/auth/second-factor: the person's factors and how many recovery codes are left. */
export const secondFactorsJson = z.object({
  required: z.boolean(),
  factors: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(['totp', 'passkey']),
      label: z.string(),
      createdAt: z.string(),
      lastUsedAt: z.string().nullable(),
    }),
  ),
  recoveryCodesLeft: z.number().int(),
});
export type SecondFactorsJson = z.infer<typeof secondFactorsJson>;
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
  /** Whether the portal sends email (SMTP_URL, decision 076): without it, no screen offers anything by email. */
  email: z.boolean(),
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

/**
 * The ways a person may give the step-up before classified letters (decision 066): their second factor where they
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
export const activeSessionJson = z.object({
  _id: z.string(),
  current: z.boolean(),
  method: z.enum(['password', 'directory', 'sso']),
  secondFactor: z.enum(['totp', 'passkey', 'recovery']).nullable(),
  userAgent: z.string(),
  address: z.string(),
  createdAt: z.string(),
  verifiedAt: z.string(),
});
export type ActiveSessionJson = z.infer<typeof activeSessionJson>;
