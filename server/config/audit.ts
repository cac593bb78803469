import { z } from 'zod';

import { JWT_SECRET_MIN_LENGTH } from './sign-in.ts';
import { refuse, variable } from './variables.ts';

/**
 * The audit trail and backups (docs/decisions/105): how long audit events are kept (decision 068), how often a
 * checkpoint is written (decision 093), and the key backups are signed with (decision 027).
 */

/** The shortest retention of the audit trail (CERT-In's directions of April 2022: 180 days), and the default. */
export const AUDIT_RETENTION_MIN_DAYS = 180;
/** A hundred years: longer is "never", and would not make a date. */
const AUDIT_RETENTION_MAX_DAYS = 36_500;

/**
 * How often an audit checkpoint may be written (AUDIT_CHECKPOINT_MINUTES): a cron line in India time must say it, so a
 * divisor of an hour or of a day, and no oftener than every 5 minutes (each is a file and an event).
 */
export const AUDIT_CHECKPOINT_MINUTES = [5, 10, 15, 20, 30, 60, 120, 180, 240, 360, 480, 720, 1440];

export const auditEnv = z.object({
  AUDIT_RETENTION_DAYS: variable((v, ctx) => {
    if (v === undefined) return AUDIT_RETENTION_MIN_DAYS;
    const days = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!(days <= AUDIT_RETENTION_MAX_DAYS)) {
      return refuse(
        ctx,
        `AUDIT_RETENTION_DAYS must be a whole number of days from ${AUDIT_RETENTION_MIN_DAYS} to ${AUDIT_RETENTION_MAX_DAYS} (got "${v}").`,
      );
    }
    if (days >= AUDIT_RETENTION_MIN_DAYS) return days;
    return refuse(
      ctx,
      `AUDIT_RETENTION_DAYS must be at least ${AUDIT_RETENTION_MIN_DAYS} days, as CERT-In's directions of April 2022 require (got "${v}").`,
    );
  }),
  AUDIT_CHECKPOINT_MINUTES: variable((v, ctx) => {
    if (v === undefined) return 60;
    const minutes = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (AUDIT_CHECKPOINT_MINUTES.includes(minutes)) return minutes;
    return refuse(ctx, `AUDIT_CHECKPOINT_MINUTES must be one of ${AUDIT_CHECKPOINT_MINUTES.join(', ')} (got "${v}").`);
  }),
  BACKUP_KEY: variable((v, ctx) => {
    if (v === undefined || v.length >= JWT_SECRET_MIN_LENGTH) return v;
    return refuse(
      ctx,
      `BACKUP_KEY must be at least ${JWT_SECRET_MIN_LENGTH} characters long (it has ${v.length}). Use a long random value (openssl rand -base64 48), kept apart from the backups.`,
    );
  }),
});
