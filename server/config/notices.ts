import { z } from 'zod';

import { wholeNumber } from './variables.ts';

/**
 * Notices (docs/decisions/105): the feedback throttle, the reminders of circulars to acknowledge (decision 074), the
 * hour of the morning notices and digest (decision 082), and when an overdue letter goes to the group head.
 */

export const noticesEnv = z.object({
  FEEDBACK_RATE_LIMIT: wholeNumber('FEEDBACK_RATE_LIMIT', 5, 1),
  ACK_REMINDER_DAYS: wholeNumber('ACK_REMINDER_DAYS', 2, 1, 365),
  DIGEST_HOUR: wholeNumber('DIGEST_HOUR', 9, 0, 23),
  DAK_ESCALATE_DAYS: wholeNumber('DAK_ESCALATE_DAYS', 3, 1, 365),
});
