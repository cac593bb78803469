import { and, eq } from 'drizzle-orm';

import { ADMIN_MAIL_KINDS, type MailPreferenceKind } from '#shared/schemas/mail-preferences.ts';

import { forbidden, unauthorized } from '#server/lib/errors.ts';
import { definePolicy } from '#server/lib/policy.ts';
import { isAdmin } from '#server/lib/roles.policy.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

/** Who receives, and so may choose for, a kind of mail (decision 081): the admins' kinds are theirs alone. */
export const receivesMailKind = (actor: Pick<Actor, 'role'>, kind: MailPreferenceKind): boolean =>
  !ADMIN_MAIL_KINDS.includes(kind) || actor.role === 'admin';

/** Who may do what in this module (decision 035). */
export const mailPolicy = definePolicy({
  /** Choosing how a kind of mail comes: any signed-in person, for the kinds they receive. */
  'mail.choose': (actor: Actor | null, choice: { kind: MailPreferenceKind }) =>
    actor === null
      ? unauthorized()
      : receivesMailKind(actor, choice.kind) || isAdmin(actor)
        ? true
        : forbidden('users.mail_kind_admins_only'),
});

/** Who is told of a registration (the admins' kind): approved admins, as an SQL condition on users. */
export const registrationReceivers = () => and(eq(users.role, 'admin'), eq(users.status, 'approved'));
