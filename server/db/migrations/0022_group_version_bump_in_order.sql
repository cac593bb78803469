-- A group's content version is moved by every write its page shows (0017, 0018). The old body locked the groups in
-- id order in a subquery and updated them in the outer UPDATE: when another writer had moved the same group since the
-- statement's snapshot, the outer UPDATE went back to the old row version and waited for a tuple lock a third writer
-- held while waiting for this one, and PostgreSQL reported a deadlock (many people joining, leaving and being renamed
-- in one group at once). Now each group is locked in id order and then updated by its key in a statement of its own,
-- which sees the version just locked: writers queue on the group's row, one after another, never crosswise.
CREATE OR REPLACE FUNCTION bump_group_content_versions(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  group_id uuid;
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  FOR group_id IN SELECT id FROM groups WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE LOOP
    UPDATE groups SET content_version = content_version + 1 WHERE id = group_id;
  END LOOP;
END $$;
