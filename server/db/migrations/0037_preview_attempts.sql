-- How many times the making of a file's preview was started (decision 091): a preview the server never finished (it
-- stopped or was killed during it) is started once more, never a third time, whatever the restarts.
ALTER TABLE "file_previews" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;
