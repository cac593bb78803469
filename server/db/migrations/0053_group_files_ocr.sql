-- Text recognised in scans (decision 113): a group's notices, circulars and documents (the `group-files` area) are
-- scanned correspondence as the lab's are, and are read too. Files stored before this migration are marked by
-- `npm run ocr:backfill`, which follows the same rule (server/modules/files/ocr.ts).
CREATE OR REPLACE FUNCTION ocr_file_stored() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.derived_from IS NULL
    AND NEW.area IN ('letters', 'close-groups', 'notices', 'circulars', 'group-files', 'efiles')
    AND lower(substring(NEW.original_name FROM '\.([A-Za-z0-9]+)$')) IN ('pdf', 'png', 'jpg', 'jpeg', 'tif', 'tiff') THEN
    INSERT INTO file_ocr (file_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
    PERFORM pg_notify('file_ocr_pending', NEW.id::text);
  END IF;
  RETURN NULL;
END
$$;
