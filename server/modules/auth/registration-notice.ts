import type { DbOrTx } from '#server/db/client.ts';
import { users } from '#server/db/schema/index.ts';
import { registrationReceivers } from '#server/modules/mail/mail.policy.ts';
import { notify } from '#server/modules/notifications/notifications.service.ts';

/**
 * Tells the admins that an account waits for their approval ("Registration received"): under the bell, and
 * in their morning digest by default (decision 081). Every way an account is made pending calls it in the same
 * transaction: the registration form, a first directory sign-in without a mapped role, a first single sign-on without
 * one.
 */
export async function notifyRegistration(tx: DbOrTx, userId: string): Promise<void> {
  const admins = await tx.select({ id: users.id }).from(users).where(registrationReceivers());
  await notify(
    tx,
    {
      userIds: admins.map((a) => a.id),
      kind: 'registration_received',
      subjectType: 'user',
      subjectId: userId,
      sourceIds: [userId],
    },
    null,
  );
}
