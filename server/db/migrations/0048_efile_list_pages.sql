-- Decision 121: My files a page at a time by a keyset on (moved_at, id), newest first. Each box's index holds both in
-- that order, so a page is read from the index and stops at its end (the 0042 indexes held id ascending, which made
-- the database sort every file of the person before the first page).
DROP INDEX IF EXISTS "efiles_holder_idx";--> statement-breakpoint
CREATE INDEX "efiles_holder_idx" ON "efiles" ("holder_id", "state", "moved_at" DESC, "id" DESC);--> statement-breakpoint
DROP INDEX IF EXISTS "efiles_creator_idx";--> statement-breakpoint
CREATE INDEX "efiles_creator_idx" ON "efiles" ("created_by", "moved_at" DESC, "id" DESC);--> statement-breakpoint
-- "Closed": the closed files in that order, each checked against the person's participation (its primary key).
CREATE INDEX "efiles_closed_idx" ON "efiles" ("moved_at" DESC, "id" DESC) WHERE "state" = 'closed';
