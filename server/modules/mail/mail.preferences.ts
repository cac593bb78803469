import { eq } from 'drizzle-orm';

import {
  MAIL_PREFERENCE_KINDS,
  type MailChoice,
  type MailPreferenceKind,
  type MailPreferencesInput,
  type MailPreferencesJson,
  MANDATORY_MAIL_KINDS,
} from '#shared/schemas/mail-preferences.ts';

import type { MailConfig } from '#server/config.ts';
import type { Db, DbOrTx } from '#server/db/client.ts';
import { conflict } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { lockMailPreferences, setMailPreferences } from '#server/modules/users/users.queries.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { choiceOf } from './mail.decision.ts';
import { mailPolicy, receivesMailKind } from './mail.policy.ts';

/**
 * Each person's choice per kind of mail (decision 081): now, in the morning digest, or off, kept in
 * users.mail_preferences (kinds left out keep MAIL_PREFERENCE_DEFAULTS). A kind the person does not receive (an admin's
 * kind for anyone else) is off.
 */

/** The person's choices as My Account shows them (GET /api/users/me/mail-preferences). */
export async function ownMailPreferences(db: DbOrTx, actor: Actor, mail: MailConfig | null) {
  const [me] = await db
    .select({ role: users.role, mailPreferences: users.mailPreferences })
    .from(users)
    .where(eq(users.id, actor.id));
  const person = me ?? { role: actor.role, mailPreferences: {} };
  return {
    email: mail !== null,
    preferences: MAIL_PREFERENCE_KINDS.filter((kind) => receivesMailKind(person, kind)).map((kind) => ({
      kind,
      choice: choiceOf(person, kind),
    })),
    mandatory: [...MANDATORY_MAIL_KINDS],
  } satisfies MailPreferencesJson;
}

/**
 * Keeps the person's choices (PUT /api/users/me/mail-preferences): refused with 409 where the portal sends no mail,
 * 403 for a kind they do not receive; a change is logged, in the same transaction.
 */
export async function setOwnMailPreferences(
  db: Db,
  actor: Actor,
  mail: MailConfig | null,
  input: MailPreferencesInput,
): Promise<void> {
  if (!mail) throw conflict('users.mail_off');
  const asked = Object.entries(input.preferences) as [MailPreferenceKind, MailChoice][];
  for (const [kind] of asked) mailPolicy.authorize(actor, 'mail.choose', { kind });
  await db.transaction(async (tx) => {
    const before = (await lockMailPreferences(tx, actor.id)) ?? {};
    const after = { ...before, ...Object.fromEntries(asked) };
    const changed = asked.filter(([kind, choice]) => before[kind] !== choice);
    if (!changed.length) return;
    await setMailPreferences(tx, actor.id, after);
    await recordActivity(
      tx,
      actor,
      'activity.mail_preferences_changed',
      { kinds: changed.map(([k, c]) => `${k}=${c}`).join(', ') },
      { type: 'user', id: actor.id },
    );
  });
}
