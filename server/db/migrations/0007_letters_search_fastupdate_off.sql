DROP INDEX "letters_search_idx";--> statement-breakpoint
CREATE INDEX "letters_search_idx" ON "letters" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);