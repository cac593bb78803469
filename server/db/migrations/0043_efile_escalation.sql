-- Overdue e-files in the morning's notices, as overdue dak (decision 111): to the officer holding one past its due
-- date, and to the head of its owner group once it is DAK_ESCALATE_DAYS past it.
ALTER TYPE "public"."notification_kind" ADD VALUE 'efile_overdue_held';--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'efile_escalated';
