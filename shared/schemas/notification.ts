import { z } from 'zod';

/** In-app notifications (decision 020), shown under the bell in the header. */
export const NOTIFICATION_KINDS = [
  'letter_marked',
  'letter_returned',
  'letter_overdue',
  // Decision 074: a notice or circular to acknowledge is due in ACK_REMINDER_DAYS days, or its deadline has passed.
  'acknowledgement_due',
  'acknowledgement_overdue',
  // Decision 081: due tomorrow and overdue (to the officer holding it), escalated (to the holder's group
  // head), a circular to acknowledge (at publishing), a close group ending in 3 days, a registration (admins).
  'letter_due_tomorrow',
  'letter_overdue_held',
  'letter_escalated',
  'acknowledgement_requested',
  'close_group_ending',
  'registration_received',
  // Decision 090: a first single sign-on waits for an administrator to link it to an account (admins; the bell alone).
  'sso_link_requested',
  // Decision 094: a directory entry whose mail is another directory account's was refused (admins; the bell alone).
  'directory_mail_collision',
  // Decision 107: an e-file was sent (or returned) to you, or copied to you for information.
  'efile_sent',
  // Decision 111: an e-file you hold is overdue; one held in your group (as the owner group's head) is long overdue.
  'efile_overdue_held',
  'efile_escalated',
  // Decision 115: an upload was refused as malware (admins; the bell alone).
  'malware_detected',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const notificationJson = z.object({
  _id: z.uuid(),
  kind: z.enum(NOTIFICATION_KINDS),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  /** What it is about, read fresh (a letter: its Letter ID and subject). */
  subject: z.object({ type: z.string(), _id: z.uuid(), ref: z.string(), title: z.string() }),
  /** Who marked or sent back the letter, or who holds the overdue one. */
  actor: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
});
export type NotificationJson = z.infer<typeof notificationJson>;

export const notificationListJson = z.object({ notifications: z.array(notificationJson), unread: z.number() });
export type NotificationListJson = z.infer<typeof notificationListJson>;
export const notificationCountJson = z.object({ unread: z.number() });
export type NotificationCountJson = z.infer<typeof notificationCountJson>;
export const notificationListQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(20) });
