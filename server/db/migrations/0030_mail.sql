CREATE TABLE "password_reset_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"to_address" text NOT NULL,
	"language" text NOT NULL,
	"kind" text NOT NULL,
	"params" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"queued_at" timestamp with time zone,
	"done_at" timestamp with time zone,
	CONSTRAINT "mail_outbox_status_check" CHECK ("mail_outbox"."status" in ('pending', 'queued', 'sent', 'dropped', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "password_reset_tokens_hash_idx" ON "password_reset_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "password_reset_tokens_user_idx" ON "password_reset_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_pending_idx" ON "mail_outbox" USING btree ("created_at") WHERE "mail_outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "mail_outbox_done_idx" ON "mail_outbox" USING btree ("done_at") WHERE "mail_outbox"."done_at" is not null;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language_check" CHECK ("users"."language" in ('en', 'hi'));--> statement-breakpoint
-- A mail written in a transaction wakes the mail jobs at its commit (server/modules/mail/mail.jobs.ts); a node that
-- missed the notice (not listening then) finds the row when it starts or reconnects.
CREATE OR REPLACE FUNCTION mail_outbox_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mail_pending', NEW.id::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER mail_outbox_written AFTER INSERT ON mail_outbox FOR EACH ROW EXECUTE FUNCTION mail_outbox_written();
