-- The letters search chooses its plan itself (server/modules/letters/letters.search.ts), so it needs no histogram of
-- search_text: without one the planner spends no time matching the pattern against 1,000 samples (about 2 ms per
-- search at a million letters), and ANALYZE skips the longest column of the table. Replaces 0002's SET STATISTICS 1000.
ALTER TABLE "letters" ALTER COLUMN "search_text" SET STATISTICS 0;
