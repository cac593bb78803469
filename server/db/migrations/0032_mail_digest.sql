ALTER TYPE "public"."notification_kind" ADD VALUE 'letter_due_tomorrow';--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'letter_overdue_held';--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'letter_escalated';--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'acknowledgement_requested';--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'close_group_ending';--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'registration_received';--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mail_preferences" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "mail" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "mailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_mail_check" CHECK ("notifications"."mail" in ('now', 'digest', 'done'));--> statement-breakpoint
CREATE INDEX "notifications_mail_idx" ON "notifications" USING btree ("mail","user_id","created_at") WHERE "notifications"."mail" in ('now', 'digest');--> statement-breakpoint
-- A notice to be mailed now wakes the mail jobs at its commit, as a mail written to the outbox does (decision 081).
CREATE OR REPLACE FUNCTION notification_to_mail() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mail_pending', NEW.id::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER notification_to_mail AFTER INSERT ON notifications FOR EACH ROW WHEN (NEW.mail = 'now') EXECUTE FUNCTION notification_to_mail();
