-- A close-group document's entry in the search carries its classification (decision 095), as a letter's does: the
-- search leaves out the text inside a file of a class STEP_UP_CLASSIFICATIONS guards while the reader's session is
-- stale, shows no snippet of a classified file (anything above Unclassified) to anyone, and links a guarded one to
-- its close groups' page. Any change of the document (its classification included) re-indexes it (search_sync).
CREATE OR REPLACE FUNCTION search_index_close_group_document(did uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE kind = 'close-group-document' AND item_id = did;
  INSERT INTO search_documents (kind, item_id, title, body, file_id, file_text, url, file_url, date, audience,
    close_group_id, uploaded_by, classification)
  SELECT 'close-group-document', d.id, d.filename, c.group_name, d.file_id, search_file_text(d.file_id), '/closeGroup',
    search_file_url(d.file_id), d.uploaded_at, 'close-group', d.close_group_id, d.uploaded_by, d.classification::text
  FROM close_group_documents d JOIN close_groups c ON c.id = d.close_group_id WHERE d.id = did;
END
$$;--> statement-breakpoint
UPDATE search_documents s SET classification = d.classification::text
  FROM close_group_documents d
  WHERE s.kind = 'close-group-document' AND s.item_id = d.id;
