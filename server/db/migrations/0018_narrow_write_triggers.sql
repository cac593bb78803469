-- Write amplification (issue 12): the triggers that keep the search index and the group pages' versions now act only
-- when something they use changed. Before, every UPDATE of a person (a profile's "about", a photo, a password change)
-- re-wrote their search entry and moved their group's version, and every version move re-wrote the group's own search
-- entry: a profile save cost ~5 ms of database time instead of ~1, and emptied the cached group pages of everyone in
-- the saver's group.

-- A person's search entry (search_index_user) reads these columns and their group's name.
DROP TRIGGER search_sync ON users;--> statement-breakpoint
CREATE TRIGGER search_sync AFTER INSERT OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION search_sync();--> statement-breakpoint
CREATE TRIGGER search_sync_update AFTER UPDATE ON users FOR EACH ROW
  WHEN ((OLD.name, OLD.designation, OLD.cadre, OLD.group_id, OLD.skills, OLD.qualifications, OLD.email, OLD.status,
    OLD.created_at) IS DISTINCT FROM (NEW.name, NEW.designation, NEW.cadre, NEW.group_id, NEW.skills,
    NEW.qualifications, NEW.email, NEW.status, NEW.created_at))
  EXECUTE FUNCTION search_sync();--> statement-breakpoint

-- A group's entry (search_index_group) reads these; a new name also reaches its members' and repositories' entries.
-- A move of content_version alone is not a change of the group's text.
DROP TRIGGER search_sync ON groups;--> statement-breakpoint
CREATE TRIGGER search_sync AFTER INSERT OR DELETE ON groups FOR EACH ROW EXECUTE FUNCTION search_sync();--> statement-breakpoint
CREATE TRIGGER search_sync_update AFTER UPDATE ON groups FOR EACH ROW
  WHEN ((OLD.name, OLD.description, OLD.about, OLD.vision, OLD.mission, OLD.history, OLD.created_at)
    IS DISTINCT FROM (NEW.name, NEW.description, NEW.about, NEW.vision, NEW.mission, NEW.history, NEW.created_at))
  EXECUTE FUNCTION search_sync();--> statement-breakpoint

-- A letter's entry (search_index_letter) reads these, its file's text (which has its own trigger) and its uploader's
-- name (a new name reaches letters.search_text: users_name_to_letters); a letter moving between officers changes none.
DROP TRIGGER search_sync ON letters;--> statement-breakpoint
CREATE TRIGGER search_sync AFTER INSERT OR DELETE ON letters FOR EACH ROW EXECUTE FUNCTION search_sync();--> statement-breakpoint
CREATE TRIGGER search_sync_update AFTER UPDATE ON letters FOR EACH ROW
  WHEN ((OLD.letter_id, OLD.letter_sub, OLD.docket_no, OLD.letter_no, OLD.category, OLD.establishment,
    OLD.letter_language, OLD.letter_commun_by, OLD.file_id, OLD.letter_upload_date, OLD.uploaded_by,
    OLD.classification, OLD.deleted_at, OLD.search_text)
    IS DISTINCT FROM (NEW.letter_id, NEW.letter_sub, NEW.docket_no, NEW.letter_no, NEW.category, NEW.establishment,
    NEW.letter_language, NEW.letter_commun_by, NEW.file_id, NEW.letter_upload_date, NEW.uploaded_by,
    NEW.classification, NEW.deleted_at, NEW.search_text))
  EXECUTE FUNCTION search_sync();--> statement-breakpoint

-- Nothing to move: no UPDATE at all.
CREATE OR REPLACE FUNCTION bump_group_content_versions(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  UPDATE groups SET content_version = content_version + 1
  WHERE id IN (SELECT id FROM groups WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE);
END $$;--> statement-breakpoint

-- People, as the group pages show them: a group's members list a person's name, email, photo, role and designation
-- (approved members of that group), its director entries their name, photo and "about". A changed person moves the
-- groups whose pages show something that changed: their group before and after for the first, every group whose
-- history names them for either.
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
      WITH changed AS (
        SELECT o.id, o.group_id AS old_group, n.group_id AS new_group,
          (o.name, o.email, o.photo_file_id, o.role, o.designation, o.group_id, o.status)
            IS DISTINCT FROM (n.name, n.email, n.photo_file_id, n.role, n.designation, n.group_id, n.status) AS as_member,
          (o.name, o.photo_file_id, o.about, o.status)
            IS DISTINCT FROM (n.name, n.photo_file_id, n.about, n.status) AS as_named
        FROM old_rows o JOIN new_rows n ON n.id = o.id
      )
      SELECT old_group FROM changed WHERE as_member AND old_group IS NOT NULL
      UNION SELECT new_group FROM changed WHERE as_member AND new_group IS NOT NULL
      UNION SELECT d.group_id FROM director_entries d JOIN changed c ON d.user_id = c.id
        WHERE (c.as_member OR c.as_named) AND d.group_id IS NOT NULL));
  END IF;
  RETURN NULL;
END $$;
