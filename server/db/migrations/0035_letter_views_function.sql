-- A page of letters as its cards show them, for one viewer (issue 34): every letters page, the dak inbox and every
-- letter opened read it (letters.service.ts loadViews). As a prepared statement it was planned afresh on every run:
-- PostgreSQL keeps a statement's generic plan only while it costs less than the custom plans so far, and a custom
-- plan of a short page (one person's few letters) costs less than the generic one, which reckons on ten; so every run
-- paid a custom plan (0.5-0.7 ms on a quiet machine, 3.3 ms under the spec-reads load, for a run of under 1 ms). Here
-- the query is planned once per connection and kept (force_generic_plan, for this function only): its plan does not
-- depend on the values (the letters by primary key, their movements by letter). The caller's statement, a scan of
-- this function, costs the same whatever its values, so PostgreSQL keeps its generic plan as well.
-- The columns are the letter's but its search text (which no card shows), then what the card adds; a test
-- (letters.list.test.ts) holds them to the letters table.
CREATE FUNCTION letter_views_for_viewer(ids uuid[], viewer uuid)
RETURNS TABLE (
  id uuid, letter_id text, letter_sub text, letter_no text, letter_date date, docket_no text, docket_date date,
  category text, establishment text, letter_language text, letter_commun_by text, letter_upload_date timestamptz,
  classification letter_classification, file_id uuid, uploaded_by uuid, deleted_at timestamptz, deleted_by uuid,
  updated_at timestamptz, uploader_name text, deleter_name text, original_name text, frozen boolean,
  involved boolean, holds boolean)
LANGUAGE plpgsql STABLE ROWS 20
SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT l.id, l.letter_id, l.letter_sub, l.letter_no, l.letter_date, l.docket_no, l.docket_date, l.category,
    l.establishment, l.letter_language, l.letter_commun_by, l.letter_upload_date, l.classification, l.file_id,
    l.uploaded_by, l.deleted_at, l.deleted_by, l.updated_at,
    (SELECT u.name FROM users u WHERE u.id = l.uploaded_by),
    (SELECT u.name FROM users u WHERE u.id = l.deleted_by),
    (SELECT f.original_name FROM files f WHERE f.id = l.file_id),
    -- moved at all (frozen), the viewer marked it or was marked it (involved), the viewer holds it now (holds)
    EXISTS (SELECT 1 FROM letter_movements m WHERE m.letter_id = l.id),
    EXISTS (SELECT 1 FROM letter_movements m WHERE m.letter_id = l.id
      AND (m.to_user_id = viewer OR m.from_user_id = viewer)),
    EXISTS (SELECT 1 FROM letter_movements m WHERE m.letter_id = l.id AND m.to_user_id = viewer AND m.box <> 'closed')
  FROM letters l WHERE l.id = ANY (ids);
END $$;
