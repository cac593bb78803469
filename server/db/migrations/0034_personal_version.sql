-- The signed-in person's own reads (issue 34): the letters register and its pages, the dak inbox and its badge, the
-- bell, the acknowledgements badge and list, and the close groups one belongs to. Their answers are kept per person
-- under a version the database moves on, in the writing transaction, whenever any table they are made from changes:
-- the same way as the staff directory's (0019), and in the same row, so that a transaction that moves both takes one
-- row lock, never two crosswise. Every signed-in request reads the row with its session check (no extra round trip).
ALTER TABLE "directory_version" RENAME TO "read_versions";--> statement-breakpoint
ALTER TABLE "read_versions" RENAME COLUMN "version" TO "directory";--> statement-breakpoint
ALTER TABLE "read_versions" ADD COLUMN "personal" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_directory_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO read_versions (id, directory) VALUES (true, 1)
    ON CONFLICT (id) DO UPDATE SET directory = read_versions.directory + 1;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Once per transaction: a statement that writes two thousand notices (a circular's audience) moves the version once,
-- not two thousand times. The mark is a transaction-local setting, gone at commit or rollback.
CREATE OR REPLACE FUNCTION bump_personal_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('lab_portal.personal_version_moved', true) = 'yes' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('lab_portal.personal_version_moved', 'yes', true);
  INSERT INTO read_versions (id, personal) VALUES (true, 1)
    ON CONFLICT (id) DO UPDATE SET personal = read_versions.personal + 1;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Deferred to the commit, as 0019's: the one row is locked last, after every row the transaction writes.
CREATE CONSTRAINT TRIGGER letters_personal_version AFTER INSERT OR UPDATE OR DELETE ON letters
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER letter_movements_personal_version AFTER INSERT OR UPDATE OR DELETE ON letter_movements
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER dak_delegations_personal_version AFTER INSERT OR UPDATE OR DELETE ON dak_delegations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER notifications_personal_version AFTER INSERT OR UPDATE OR DELETE ON notifications
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER acknowledgement_requests_personal_version AFTER INSERT OR UPDATE OR DELETE ON acknowledgement_requests
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER acknowledgements_personal_version AFTER INSERT OR UPDATE OR DELETE ON acknowledgements
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER close_groups_personal_version AFTER INSERT OR UPDATE OR DELETE ON close_groups
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER close_group_members_personal_version AFTER INSERT OR UPDATE OR DELETE ON close_group_members
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER close_group_documents_personal_version AFTER INSERT OR UPDATE OR DELETE ON close_group_documents
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();
--> statement-breakpoint
-- The documents to acknowledge are named in the acknowledgements list and the bell by their notice or circular and
-- its owner (a group's name moves the directory's version already; the lab's name moves this one).
CREATE CONSTRAINT TRIGGER lab_items_personal_version AFTER INSERT OR UPDATE OR DELETE ON lab_items
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER group_items_personal_version AFTER INSERT OR UPDATE OR DELETE ON group_items
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER labs_personal_version AFTER UPDATE ON labs
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION bump_personal_version();
--> statement-breakpoint
-- A person's own profile (the record with their documents) and the Groups menu (who leads which group: the director
-- entries of the groups' history) are kept the same way.
CREATE CONSTRAINT TRIGGER user_documents_personal_version AFTER INSERT OR UPDATE OR DELETE ON user_documents
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER director_entries_personal_version AFTER INSERT OR UPDATE OR DELETE ON director_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
-- The list of groups (GET /api/groups/name, the Groups menu, the directory's filter): a new or removed group moves
-- the directory's version, as a renamed one already does (0019).
CREATE CONSTRAINT TRIGGER groups_directory_version AFTER INSERT OR DELETE ON groups
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_directory_version();
--> statement-breakpoint
-- My Account's second factors (their last use is kept at each use) and recovery codes.
CREATE CONSTRAINT TRIGGER user_factors_personal_version AFTER INSERT OR UPDATE OR DELETE ON user_factors
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER recovery_codes_personal_version AFTER INSERT OR UPDATE OR DELETE ON recovery_codes
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();
--> statement-breakpoint
-- The repositories lists (a trial repository is its group's).
CREATE CONSTRAINT TRIGGER software_repos_personal_version AFTER INSERT OR UPDATE OR DELETE ON software_repos
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER trial_repos_personal_version AFTER INSERT OR UPDATE OR DELETE ON trial_repos
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_personal_version();
--> statement-breakpoint
-- The group page and My Group, kept per viewer too: whatever moves a group's content version (0017, 0018, 0022)
-- moves the personal one at the commit.
CREATE CONSTRAINT TRIGGER groups_personal_version AFTER UPDATE ON groups
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.content_version IS DISTINCT FROM NEW.content_version)
  EXECUTE FUNCTION bump_personal_version();
