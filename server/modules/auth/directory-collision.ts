import type { LdapConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { type UserRow, users } from '#server/db/schema/index.ts';
import { conflict } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { registrationReceivers } from '#server/modules/mail/mail.policy.ts';
import { notify } from '#server/modules/notifications/notifications.service.ts';

import { type DirectoryPerson, readEntry, sameDn, withLookupAccount } from './directory.ts';

/**
 * A directory entry whose `mail` is a directory account's that belongs to another entry (decision 094). The directory
 * does not keep mail unique, so anyone who may edit their own entry's mail (or a second entry made for them) could
 * otherwise sign in as another person. The account moves to the new entry only when its own entry is gone from the
 * directory (a person renamed or moved to another branch: a new DN, the same mail); while its entry is still there the
 * sign-in is refused with 409 `auth.directory_mail_in_use` and the admins are told under the bell.
 */

/** Whether the account `account` (a directory account of another DN) may move to `person`'s entry. */
export async function mayMoveToEntry(config: LdapConfig, account: UserRow, person: DirectoryPerson): Promise<boolean> {
  if (!account.directoryDn || sameDn(account.directoryDn, person.dn)) return true;
  const old = await withLookupAccount(config, (client) => readEntry(client, config, account.directoryDn!));
  return old === null;
}

/**
 * Refuses the sign-in of `person`, whose mail is `account`'s while `account`'s own entry is still in the directory:
 * an activity row and a notice to every admin (one per account: a repeat is not told again until it is read), committed,
 * then 409 `auth.directory_mail_in_use`.
 */
export async function refuseMailCollision(db: Db, account: UserRow, person: DirectoryPerson): Promise<never> {
  await db.transaction(async (tx) => {
    await recordActivity(
      tx,
      null,
      'activity.directory_mail_collision',
      { email: account.email, dn: person.dn },
      { type: 'user', id: account.id },
    );
    const admins = await tx.select({ id: users.id }).from(users).where(registrationReceivers());
    await notify(
      tx,
      {
        userIds: admins.map((a) => a.id),
        kind: 'directory_mail_collision',
        subjectType: 'user',
        subjectId: account.id,
        sourceIds: [account.id],
      },
      null,
    );
  });
  throw conflict('auth.directory_mail_in_use');
}
