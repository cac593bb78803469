ALTER TABLE "activity_logs" ADD COLUMN "code" text;--> statement-breakpoint
ALTER TABLE "activity_logs" ADD COLUMN "params" jsonb;