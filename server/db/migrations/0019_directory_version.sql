-- The staff directory's cached answers (issue 12, decision 016's ninth addendum): directory_version moves on, in the
-- writing transaction, whenever anything a directory card shows or a directory search filters on changes. Every
-- signed-in request reads it with its session check (no extra round trip), so a node knows at once whether its cached
-- answers are still the directory, whoever wrote and on whichever node. Kept by the database, never by the
-- application: a write path added later cannot forget it.
-- One row at most, made by the first change (none before it reads as version 0), so a restore's copy of the table
-- goes into an empty one.
CREATE TABLE "directory_version" (
  "id" boolean PRIMARY KEY DEFAULT true CHECK ("id"),
  "version" bigint DEFAULT 0 NOT NULL
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_directory_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO directory_version (id, version) VALUES (true, 1)
    ON CONFLICT (id) DO UPDATE SET version = directory_version.version + 1;
  RETURN NULL;
END $$;--> statement-breakpoint
-- People: a new or removed account, or a change of what a card shows (name, email, role, photo, designation, cadre,
-- intercom, group) or of who is listed (status). A profile's "about", a password or a sign-out changes none.
-- Deferred to the commit: the one row is locked last, after every row the transaction writes, so two writers never
-- wait on each other crosswise (one moving several people at once and another saving one of them would deadlock if
-- each locked the version after its first row).
CREATE CONSTRAINT TRIGGER users_directory_version AFTER INSERT OR DELETE ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_directory_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER users_directory_version_update AFTER UPDATE ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.name, OLD.email, OLD.role, OLD.photo_file_id, OLD.designation, OLD.cadre, OLD.intercom, OLD.group_id,
    OLD.status) IS DISTINCT FROM (NEW.name, NEW.email, NEW.role, NEW.photo_file_id, NEW.designation, NEW.cadre,
    NEW.intercom, NEW.group_id, NEW.status))
  EXECUTE FUNCTION bump_directory_version();--> statement-breakpoint
-- Groups: a card shows its person's group by name (a removed group empties its members' group_id, itself a change).
CREATE CONSTRAINT TRIGGER groups_directory_version_update AFTER UPDATE ON groups
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION bump_directory_version();
