import { z } from 'zod';

import { msg } from '../messages/index.ts';

/**
 * How each person wants the portal's mail (decision 081), chosen per kind in My Account: at once, in
 * the morning digest, or not at all. The mandatory mails (approval or rejection, password reset) are not among them:
 * they are always sent.
 */
export const MAIL_CHOICES = ['now', 'digest', 'off'] as const;
export type MailChoice = (typeof MAIL_CHOICES)[number];

/** The kinds a person chooses for, in the order My Account lists them. */
export const MAIL_PREFERENCE_KINDS = [
  'letter_marked_urgent',
  'letter_marked',
  'letter_returned',
  'letter_due',
  'letter_overdue',
  'efile',
  'acknowledgement',
  'close_group_ending',
  'registration_received',
] as const;
export type MailPreferenceKind = (typeof MAIL_PREFERENCE_KINDS)[number];

/** The kinds only administrators receive (and choose for). */
export const ADMIN_MAIL_KINDS: readonly MailPreferenceKind[] = ['registration_received'];

/** The mails that are always sent at once and cannot be turned off. */
export const MANDATORY_MAIL_KINDS = ['account_approved', 'account_rejected', 'password_reset'] as const;

/** What each kind does until the person chooses (the issue's table: Normal markings and registrations in the digest). */
export const MAIL_PREFERENCE_DEFAULTS: Record<MailPreferenceKind, MailChoice> = {
  letter_marked_urgent: 'now',
  letter_marked: 'digest',
  letter_returned: 'now',
  letter_due: 'now',
  letter_overdue: 'now',
  efile: 'now',
  acknowledgement: 'now',
  close_group_ending: 'now',
  registration_received: 'digest',
};

const isKind = (k: string): k is MailPreferenceKind => (MAIL_PREFERENCE_KINDS as readonly string[]).includes(k);

/** PUT /api/users/me/mail-preferences: the kinds to change (others keep their choice). */
export const mailPreferencesInput = z.object({
  preferences: z
    .record(z.string(), z.enum(MAIL_CHOICES, msg('users.mail_choice_invalid')), msg('users.mail_preferences_required'))
    .superRefine((v, ctx) => {
      for (const key of Object.keys(v)) {
        if (isKind(key)) continue;
        const mandatory = (MANDATORY_MAIL_KINDS as readonly string[]).includes(key);
        ctx.addIssue({
          code: 'custom',
          message: msg(mandatory ? 'users.mail_kind_mandatory' : 'users.mail_kind_invalid'),
          path: [key],
        });
      }
      if (!Object.keys(v).length)
        ctx.addIssue({ code: 'custom', message: msg('users.mail_preferences_required'), path: [] });
    }),
});
export type MailPreferencesInput = z.input<typeof mailPreferencesInput>;

/** GET (and PUT's answer): whether the portal sends mail, and the person's choice for each kind that is theirs. */
export const mailPreferencesJson = z.object({
  email: z.boolean(),
  preferences: z.array(z.object({ kind: z.enum(MAIL_PREFERENCE_KINDS), choice: z.enum(MAIL_CHOICES) })),
  mandatory: z.array(z.enum(MANDATORY_MAIL_KINDS)),
});
export type MailPreferencesJson = z.infer<typeof mailPreferencesJson>;
