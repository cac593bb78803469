-- The group page's cached answer (issue 12, decision 016's addendum): groups.content_version changes whenever anything
-- the page shows changes, in the transaction that changes it, so a node that reads the group row knows at once
-- whether its cached copy is still the page, whoever wrote and on whichever node. Kept by the database, never by the
-- application: a write path added later cannot forget it.
ALTER TABLE "groups" ADD COLUMN "content_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The row itself: any change of a group (its name, texts) is a new version.
CREATE OR REPLACE FUNCTION groups_next_content_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.content_version := OLD.content_version + 1;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER groups_content_version BEFORE UPDATE ON groups
  FOR EACH ROW EXECUTE FUNCTION groups_next_content_version();--> statement-breakpoint
-- A new version for each of these groups; rows locked in id order, so two writers never wait on each other crosswise.
-- FOR NO KEY UPDATE, the lock the UPDATE takes anyway: FOR UPDATE would conflict with the key-share lock that the
-- writing statement's own foreign-key check (a member's group_id) holds in every concurrent writer, a deadlock.
CREATE OR REPLACE FUNCTION bump_group_content_versions(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  UPDATE groups SET content_version = content_version + 1
  WHERE id IN (SELECT id FROM groups WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE);
$$;--> statement-breakpoint
-- Rows that carry a group_id (contacts, office, items, director entries): the groups of the rows before and after.
CREATE OR REPLACE FUNCTION bump_groups_of_changed_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM bump_group_content_versions(ARRAY(SELECT DISTINCT group_id FROM new_rows WHERE group_id IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM bump_group_content_versions(ARRAY(SELECT DISTINCT group_id FROM old_rows WHERE group_id IS NOT NULL));
  ELSE
    PERFORM bump_group_content_versions(ARRAY(
      SELECT group_id FROM old_rows WHERE group_id IS NOT NULL
      UNION SELECT group_id FROM new_rows WHERE group_id IS NOT NULL));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- One trigger per kind of statement on each table (a transition table belongs to a single event).
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['contact_infos', 'office_members', 'group_items', 'director_entries'] LOOP
    EXECUTE format('CREATE TRIGGER %1$s_group_version_ins AFTER INSERT ON %1$I REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION bump_groups_of_changed_rows()', t);
    EXECUTE format('CREATE TRIGGER %1$s_group_version_upd AFTER UPDATE ON %1$I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION bump_groups_of_changed_rows()', t);
    EXECUTE format('CREATE TRIGGER %1$s_group_version_del AFTER DELETE ON %1$I REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION bump_groups_of_changed_rows()', t);
  END LOOP;
END $$;--> statement-breakpoint
-- People: the page lists a group's members (their group, status, name, photo...) and names the people of its director
-- entries (their name, photo, about), so a changed person changes the group they were in, the one they are in now and
-- every group whose history names them.
CREATE OR REPLACE FUNCTION bump_groups_of_changed_people() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM bump_group_content_versions(ARRAY(SELECT group_id FROM new_rows WHERE group_id IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM bump_group_content_versions(ARRAY(
      SELECT group_id FROM old_rows WHERE group_id IS NOT NULL
      UNION SELECT d.group_id FROM director_entries d JOIN old_rows o ON d.user_id = o.id WHERE d.group_id IS NOT NULL));
  ELSE
    PERFORM bump_group_content_versions(ARRAY(
      SELECT group_id FROM old_rows WHERE group_id IS NOT NULL
      UNION SELECT group_id FROM new_rows WHERE group_id IS NOT NULL
      UNION SELECT d.group_id FROM director_entries d JOIN new_rows n ON d.user_id = n.id WHERE d.group_id IS NOT NULL));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_group_version_ins AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_groups_of_changed_people();--> statement-breakpoint
CREATE TRIGGER users_group_version_upd AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_groups_of_changed_people();--> statement-breakpoint
CREATE TRIGGER users_group_version_del AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_groups_of_changed_people();--> statement-breakpoint
-- Files: an item shows its file's name.
CREATE OR REPLACE FUNCTION bump_groups_of_changed_files() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_group_content_versions(ARRAY(
    SELECT DISTINCT i.group_id FROM group_items i JOIN new_rows n ON i.file_id = n.id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER files_group_version_upd AFTER UPDATE ON files REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_groups_of_changed_files();
