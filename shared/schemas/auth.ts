import { z } from 'zod';
import { CADRES, MOBILE_DIGITS, PASSWORD_MIN_LENGTH, REGISTER_ROLES } from '../constants.ts';
import { optionalDate, optionalText, plainText } from './common.ts';
import { userJson } from './user.ts';

// Messages are the spec's, to the letter (§5 Registration, Login).
export const emailField = plainText({ error: 'Email is required.' })
  .min(1, 'Email is required.')
  .max(254, 'Invalid email address.')
  .pipe(z.email('Invalid email address.'))
  .transform((e) => e.toLowerCase());

const passwordField = z
  .string({ error: 'Password is required.' })
  .min(1, 'Password is required.')
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(200, 'Password must be at most 200 characters.');

export const registerInput = z
  .object({
    email: emailField,
    password: passwordField,
    role: z.enum(REGISTER_ROLES, 'Please choose a role.').default('employee'),
    about: optionalText,
    personalDetails: z.object(
      {
        name: plainText({ error: 'Name is required.' }).min(1, 'Name is required.').max(200),
        dob: optionalDate,
        mobile: plainText()
          .default('')
          .refine((m) => m === '' || new RegExp(`^\\d{${MOBILE_DIGITS}}$`).test(m), 'Mobile number must be 10 digits.'),
        address: optionalText,
      },
      { error: 'Name is required.' },
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
        message: 'Designation is required.',
        path: ['professionalDetails', 'designation'],
      });
    }
  });
export type RegisterInput = z.input<typeof registerInput>;

export const loginInput = z.object({
  email: plainText({ error: 'Email is required.' })
    .min(1, 'Email is required.')
    .max(254)
    .transform((e) => e.toLowerCase()),
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.').max(200),
});
export type LoginInput = z.input<typeof loginInput>;

export const loginJson = z.object({ token: z.string(), user: userJson });
export type LoginJson = z.infer<typeof loginJson>;

export const approveUserInput = z.object({
  labId: z.uuid('Please select a lab.').nullable().optional(),
  groupId: z.uuid('Please select a Group and a Role for the user.'),
  role: z.enum(
    ['employee', 'director', 'associate_director', 'admin'],
    'Please select a Group and a Role for the user.',
  ),
});
export type ApproveUserInput = z.input<typeof approveUserInput>;
