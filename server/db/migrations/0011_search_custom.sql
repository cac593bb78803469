-- Portal search (issue 14, docs/decisions/015-search.md): search_documents is written by the database only. Each
-- search_index_<source>(id) function rebuilds (or removes) the documents of one source row from the source tables; the
-- triggers below call it after every insert, update and delete, inside the writing transaction. The application's
-- services never write search_documents, so no write path can forget it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint

-- The link of a stored file, as files/storage.ts fileUrl builds it.
CREATE OR REPLACE FUNCTION search_file_url(fid uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT '/uploads/' || f.area || '/' || f.stored_name FROM files f WHERE f.id = fid
$$;--> statement-breakpoint
-- The extracted text of a file, '' until the extraction job has read it.
CREATE OR REPLACE FUNCTION search_file_text(fid uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT t.text FROM file_texts t WHERE t.file_id = fid AND t.status = 'done'), '')
$$;--> statement-breakpoint

-- People: approved accounts only; name, designation, cadre, group, skills, qualifications, email.
CREATE OR REPLACE FUNCTION search_index_user(uid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE kind = 'person' AND item_id = uid;
  INSERT INTO search_documents (kind, item_id, title, body, url, date, audience, group_id)
  SELECT 'person', u.id, u.name,
    concat_ws(' ', u.designation, u.cadre, g.name, array_to_string(u.skills, ' '),
      array_to_string(u.qualifications, ' '), u.email),
    '/employees', u.created_at, 'signed-in', u.group_id
  FROM users u LEFT JOIN groups g ON g.id = u.group_id
  WHERE u.id = uid AND u.status = 'approved';
END
$$;--> statement-breakpoint

-- Research groups: members-only like the group page; a new name also reaches its members' and repositories' entries.
CREATE OR REPLACE FUNCTION search_index_group(gid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE kind = 'group' AND item_id = gid;
  INSERT INTO search_documents (kind, item_id, title, body, url, date, audience, group_id)
  SELECT 'group', g.id, g.name, concat_ws(' ', g.description, g.about, g.vision, g.mission, g.history),
    '/group/id/' || g.id, g.created_at, 'group', g.id
  FROM groups g WHERE g.id = gid;
END
$$;--> statement-breakpoint

-- Lab notices, circulars, products and advertisements: public, like the lab home and their files.
CREATE OR REPLACE FUNCTION search_index_lab_item(iid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE item_id = iid AND kind IN ('notice', 'circular', 'product', 'advertisement');
  INSERT INTO search_documents (kind, item_id, title, body, file_id, file_text, url, file_url, date, audience, public_listing)
  SELECT i.kind::text, i.id, i.name, i.description, i.file_id, search_file_text(i.file_id), '/',
    search_file_url(i.file_id), i.created_at, 'public', true
  FROM lab_items i WHERE i.id = iid;
END
$$;--> statement-breakpoint

-- Gallery photos: public; title and description.
CREATE OR REPLACE FUNCTION search_index_lab_photo(pid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE kind = 'photo' AND item_id = pid;
  INSERT INTO search_documents (kind, item_id, title, body, url, file_url, date, audience, public_listing)
  SELECT 'photo', p.id, p.name, p.description, '/', search_file_url(coalesce(p.web_file_id, p.file_id)), p.created_at,
    'public', true
  FROM lab_photos p WHERE p.id = pid;
END
$$;--> statement-breakpoint

-- Group notices and circulars (members only) and the five file kinds (listed publicly on the lab home by name and
-- description; their files stay members-only: decision 006).
CREATE OR REPLACE FUNCTION search_index_group_item(iid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE item_id = iid
    AND kind IN ('group-notice', 'group-circular', 'project', 'patent', 'technology', 'course', 'publication');
  INSERT INTO search_documents (kind, item_id, title, body, file_id, file_text, url, file_url, date, audience,
    public_listing, group_id)
  SELECT CASE i.kind WHEN 'notice' THEN 'group-notice' WHEN 'circular' THEN 'group-circular' ELSE i.kind::text END,
    i.id, i.name, concat_ws(' ', i.description, g.name), i.file_id, search_file_text(i.file_id), '/group/id/' || i.group_id,
    search_file_url(i.file_id), i.created_at, 'group', i.kind NOT IN ('notice', 'circular'), i.group_id
  FROM group_items i JOIN groups g ON g.id = i.group_id WHERE i.id = iid;
END
$$;--> statement-breakpoint

-- Letters of the register (not the recycle bin): every field the /allLetter search covers, and the uploader's name.
CREATE OR REPLACE FUNCTION search_index_letter(lid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE kind = 'letter' AND item_id = lid;
  INSERT INTO search_documents (kind, item_id, title, body, file_id, file_text, url, file_url, date, audience,
    uploaded_by, classification)
  SELECT 'letter', l.id, l.letter_id || ' ' || l.letter_sub,
    concat_ws(' ', l.docket_no, l.letter_no, l.category, l.establishment, l.letter_language, l.letter_commun_by,
      u.name),
    l.file_id, search_file_text(l.file_id), '/allLetter?q=' || l.letter_id, search_file_url(l.file_id),
    l.letter_upload_date, 'letter', l.uploaded_by, l.classification::text
  FROM letters l LEFT JOIN users u ON u.id = l.uploaded_by
  WHERE l.id = lid AND l.deleted_at IS NULL;
END
$$;--> statement-breakpoint

-- Close-group documents: the close group's members and admins.
CREATE OR REPLACE FUNCTION search_index_close_group_document(did uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE kind = 'close-group-document' AND item_id = did;
  INSERT INTO search_documents (kind, item_id, title, body, file_id, file_text, url, file_url, date, audience,
    close_group_id, uploaded_by)
  SELECT 'close-group-document', d.id, d.filename, c.group_name, d.file_id, search_file_text(d.file_id), '/closeGroup',
    search_file_url(d.file_id), d.uploaded_at, 'close-group', d.close_group_id, d.uploaded_by
  FROM close_group_documents d JOIN close_groups c ON c.id = d.close_group_id WHERE d.id = did;
END
$$;--> statement-breakpoint

-- Software repositories: group, type, URL, path, metadata, file name.
CREATE OR REPLACE FUNCTION search_index_software_repo(rid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE kind = 'software-repository' AND item_id = rid;
  INSERT INTO search_documents (kind, item_id, title, body, file_id, file_text, url, file_url, date, audience,
    group_id, uploaded_by)
  SELECT 'software-repository', r.id,
    coalesce(nullif(f.original_name, ''), nullif(r.github_url, ''), nullif(r.cloned_repo_path, ''), r.type::text),
    concat_ws(' ', g.name, r.type::text, r.github_url, r.cloned_repo_path, r.metadata::text, f.original_name),
    r.file_id, search_file_text(r.file_id), '/view-repo', search_file_url(r.file_id), r.created_at, 'repository',
    r.group_id, r.uploaded_by
  FROM software_repos r JOIN groups g ON g.id = r.group_id LEFT JOIN files f ON f.id = r.file_id WHERE r.id = rid;
END
$$;--> statement-breakpoint

-- Trial repositories: group, type, URL, path, languages, file name.
CREATE OR REPLACE FUNCTION search_index_trial_repo(rid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE kind = 'trial-repository' AND item_id = rid;
  INSERT INTO search_documents (kind, item_id, title, body, file_id, file_text, url, file_url, date, audience,
    group_id, uploaded_by)
  SELECT 'trial-repository', r.id,
    coalesce(nullif(f.original_name, ''), nullif(r.github_url, ''), nullif(r.cloned_repo_path, ''), r.type),
    concat_ws(' ', g.name, r.type, r.github_url, r.cloned_repo_path, array_to_string(r.language_used, ' '),
      f.original_name),
    r.file_id, search_file_text(r.file_id), '/view-trialRepo', search_file_url(r.file_id), r.created_at, 'repository',
    r.group_id, r.uploaded_by
  FROM trial_repos r JOIN groups g ON g.id = r.group_id LEFT JOIN files f ON f.id = r.file_id WHERE r.id = rid;
END
$$;--> statement-breakpoint

-- One trigger function per source table: rebuild the row's documents after any change.
CREATE OR REPLACE FUNCTION search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rid uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
BEGIN
  CASE TG_TABLE_NAME
    WHEN 'users' THEN PERFORM search_index_user(rid);
    WHEN 'groups' THEN
      PERFORM search_index_group(rid);
      IF TG_OP = 'UPDATE' AND OLD.name IS DISTINCT FROM NEW.name THEN
        PERFORM search_index_user(u.id) FROM users u WHERE u.group_id = rid;
        PERFORM search_index_group_item(i.id) FROM group_items i WHERE i.group_id = rid;
        PERFORM search_index_software_repo(r.id) FROM software_repos r WHERE r.group_id = rid;
        PERFORM search_index_trial_repo(r.id) FROM trial_repos r WHERE r.group_id = rid;
      END IF;
    WHEN 'lab_items' THEN PERFORM search_index_lab_item(rid);
    WHEN 'lab_photos' THEN PERFORM search_index_lab_photo(rid);
    WHEN 'group_items' THEN PERFORM search_index_group_item(rid);
    WHEN 'letters' THEN PERFORM search_index_letter(rid);
    WHEN 'close_group_documents' THEN PERFORM search_index_close_group_document(rid);
    WHEN 'close_groups' THEN
      PERFORM search_index_close_group_document(d.id) FROM close_group_documents d WHERE d.close_group_id = rid;
    WHEN 'software_repos' THEN PERFORM search_index_software_repo(rid);
    WHEN 'trial_repos' THEN PERFORM search_index_trial_repo(rid);
  END CASE;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER search_sync AFTER INSERT OR UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION search_sync();--> statement-breakpoint
CREATE TRIGGER search_sync AFTER INSERT OR UPDATE OR DELETE ON groups FOR EACH ROW EXECUTE FUNCTION search_sync();--> statement-breakpoint
CREATE TRIGGER search_sync AFTER INSERT OR UPDATE OR DELETE ON lab_items FOR EACH ROW EXECUTE FUNCTION search_sync();--> statement-breakpoint
CREATE TRIGGER search_sync AFTER INSERT OR UPDATE OR DELETE ON lab_photos FOR EACH ROW EXECUTE FUNCTION search_sync();--> statement-breakpoint
CREATE TRIGGER search_sync AFTER INSERT OR UPDATE OR DELETE ON group_items FOR EACH ROW EXECUTE FUNCTION search_sync();--> statement-breakpoint
CREATE TRIGGER search_sync AFTER INSERT OR UPDATE OR DELETE ON letters FOR EACH ROW EXECUTE FUNCTION search_sync();--> statement-breakpoint
CREATE TRIGGER search_sync AFTER INSERT OR UPDATE OR DELETE ON close_group_documents FOR EACH ROW EXECUTE FUNCTION search_sync();--> statement-breakpoint
CREATE TRIGGER search_sync AFTER UPDATE ON close_groups FOR EACH ROW WHEN (OLD.group_name IS DISTINCT FROM NEW.group_name) EXECUTE FUNCTION search_sync();--> statement-breakpoint
CREATE TRIGGER search_sync AFTER INSERT OR UPDATE OR DELETE ON software_repos FOR EACH ROW EXECUTE FUNCTION search_sync();--> statement-breakpoint
CREATE TRIGGER search_sync AFTER INSERT OR UPDATE OR DELETE ON trial_repos FOR EACH ROW EXECUTE FUNCTION search_sync();--> statement-breakpoint

-- A stored file of a type the extraction job reads, in an area whose items are searched, waits as 'pending'; the
-- notification (sent at commit) wakes the job (search.jobs.ts). Restarts pick up what is still pending.
CREATE OR REPLACE FUNCTION search_file_stored() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.area IN ('notices', 'circulars', 'products', 'advertisements', 'group-files', 'close-groups', 'letters',
      'software-repos', 'trial-repos')
    AND lower(substring(NEW.original_name FROM '\.([A-Za-z0-9]+)$')) IN ('pdf', 'docx', 'pptx', 'xlsx', 'txt') THEN
    INSERT INTO file_texts (file_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
    PERFORM pg_notify('file_text_pending', NEW.id::text);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER search_file_stored AFTER INSERT ON files FOR EACH ROW EXECUTE FUNCTION search_file_stored();--> statement-breakpoint

-- Extracted text reaches every document of that file.
CREATE OR REPLACE FUNCTION search_file_text_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_documents SET file_text = CASE WHEN NEW.status = 'done' THEN NEW.text ELSE '' END
  WHERE file_id = NEW.file_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER search_file_text_changed AFTER UPDATE OF status, text ON file_texts FOR EACH ROW EXECUTE FUNCTION search_file_text_changed();--> statement-breakpoint

-- Existing rows: index everything once, and mark existing files for extraction.
SELECT search_index_user(id) FROM users;--> statement-breakpoint
SELECT search_index_group(id) FROM groups;--> statement-breakpoint
SELECT search_index_lab_item(id) FROM lab_items;--> statement-breakpoint
SELECT search_index_lab_photo(id) FROM lab_photos;--> statement-breakpoint
SELECT search_index_group_item(id) FROM group_items;--> statement-breakpoint
SELECT search_index_letter(id) FROM letters;--> statement-breakpoint
SELECT search_index_close_group_document(id) FROM close_group_documents;--> statement-breakpoint
SELECT search_index_software_repo(id) FROM software_repos;--> statement-breakpoint
SELECT search_index_trial_repo(id) FROM trial_repos;--> statement-breakpoint
INSERT INTO file_texts (file_id)
SELECT f.id FROM files f
WHERE f.area IN ('notices', 'circulars', 'products', 'advertisements', 'group-files', 'close-groups', 'letters',
    'software-repos', 'trial-repos')
  AND lower(substring(f.original_name FROM '\.([A-Za-z0-9]+)$')) IN ('pdf', 'docx', 'pptx', 'xlsx', 'txt')
ON CONFLICT DO NOTHING;
