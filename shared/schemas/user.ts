import { z } from 'zod';
import { ROLES, USER_STATUSES } from '../constants.ts';

/** A user as the API shows it (spec §3 User). Never carries the password hash. */
export const userJson = z.object({
  _id: z.uuid(),
  email: z.string(),
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  statusReason: z.string().nullable(),
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
