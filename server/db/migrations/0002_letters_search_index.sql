DROP INDEX "letters_upload_date_idx";--> statement-breakpoint
DROP INDEX "letters_uploaded_by_idx";--> statement-breakpoint
ALTER TABLE "letters" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "letters_upload_order_idx" ON "letters" USING btree ("letter_upload_date","id");--> statement-breakpoint
CREATE INDEX "letters_file_idx" ON "letters" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "letters_recycle_bin_idx" ON "letters" USING btree ("deleted_at") WHERE "letters"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "letters_search_idx" ON "letters" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "letters_uploaded_by_idx" ON "letters" USING btree ("uploaded_by","letter_upload_date","id");--> statement-breakpoint
-- Letters stored before this migration get their search text (the trigger of 0001 computes it).
UPDATE "letters" SET "search_text" = '';--> statement-breakpoint
-- A finer histogram, so the planner can tell a common word from a rare one (docs/decisions: letters register).
ALTER TABLE "letters" ALTER COLUMN "search_text" SET STATISTICS 1000;
