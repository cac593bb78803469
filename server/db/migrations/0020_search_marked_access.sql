-- Issue 28 item 1: a reader held one `item:<letter id>` token per letter marked to or by them, each a parameter of the
-- search, once per kind: 5,001 such letters crashed the process. Instead each letter's entry now names everyone it
-- was marked to or by (`letter:marked:<user>`, or `letter:marked-classified:<user>` for a Confidential or Secret
-- letter), kept by the database in the marking's transaction, and a reader holds one token for it whatever the count.
-- The access columns are made again over the new column (dropping them drops their GIN indexes, made again below).
ALTER TABLE "search_documents" drop column "open_access";--> statement-breakpoint
ALTER TABLE "search_documents" drop column "list_access";--> statement-breakpoint
ALTER TABLE "search_documents" ADD COLUMN "marked_access" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- The tokens of everyone a letter was marked to or by (letters.policy canViewLetter's `involved`). A Confidential or
-- Secret letter gets `marked-classified:` tokens, which only cleared readers hold (search.policy.ts).
CREATE OR REPLACE FUNCTION search_letter_marked_access(lid uuid) RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(DISTINCT 'letter:'
      || CASE WHEN l.classification = 'Normal' THEN 'marked:' ELSE 'marked-classified:' END || p.user_id::text), '{}')
  FROM letters l
  JOIN letter_movements m ON m.letter_id = l.id
  CROSS JOIN LATERAL (VALUES (m.from_user_id), (m.to_user_id)) p(user_id)
  WHERE l.id = lid AND p.user_id IS NOT NULL
$$;--> statement-breakpoint
-- A letter's entry, as migration 0011 made it, now with those tokens (a new classification rebuilds it: 0018).
CREATE OR REPLACE FUNCTION search_index_letter(lid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE kind = 'letter' AND item_id = lid;
  INSERT INTO search_documents (kind, item_id, title, body, file_id, file_text, url, file_url, date, audience,
    uploaded_by, classification, marked_access)
  SELECT 'letter', l.id, l.letter_id || ' ' || l.letter_sub,
    concat_ws(' ', l.docket_no, l.letter_no, l.category, l.establishment, l.letter_language, l.letter_commun_by,
      u.name),
    l.file_id, search_file_text(l.file_id), '/allLetter?q=' || l.letter_id, search_file_url(l.file_id),
    l.letter_upload_date, 'letter', l.uploaded_by, l.classification::text, search_letter_marked_access(l.id)
  FROM letters l LEFT JOIN users u ON u.id = l.uploaded_by
  WHERE l.id = lid AND l.deleted_at IS NULL;
END
$$;--> statement-breakpoint
-- These letters' tokens, written only where they changed (a letter sent back to whoever marked it changes nothing).
CREATE OR REPLACE FUNCTION search_index_letter_marks(lids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_documents d SET marked_access = a.tokens
  FROM (SELECT lid, search_letter_marked_access(lid) AS tokens FROM unnest(lids) lid) a
  WHERE d.kind = 'letter' AND d.item_id = a.lid AND d.marked_access IS DISTINCT FROM a.tokens;
END
$$;--> statement-breakpoint
-- Once per statement (a marking to three officers is one INSERT: one rewrite of the entry), in its transaction. An
-- UPDATE counts only when it changes a movement's letter or people (a deleted account's from_user_id set to null);
-- receiving, closing, reading and the search_text copies of migration 0016 change none.
CREATE OR REPLACE FUNCTION search_sync_letter_movements() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM search_index_letter_marks(ARRAY(SELECT DISTINCT letter_id FROM new_movements));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM search_index_letter_marks(ARRAY(SELECT DISTINCT letter_id FROM old_movements));
  ELSE
    PERFORM search_index_letter_marks(ARRAY(
      SELECT DISTINCT x.letter_id FROM old_movements o JOIN new_movements n ON n.id = o.id
      CROSS JOIN LATERAL (VALUES (o.letter_id), (n.letter_id)) x(letter_id)
      WHERE (o.letter_id, o.from_user_id, o.to_user_id) IS DISTINCT FROM (n.letter_id, n.from_user_id, n.to_user_id)));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER search_sync_insert AFTER INSERT ON letter_movements REFERENCING NEW TABLE AS new_movements
  FOR EACH STATEMENT EXECUTE FUNCTION search_sync_letter_movements();--> statement-breakpoint
CREATE TRIGGER search_sync_update AFTER UPDATE ON letter_movements
  REFERENCING OLD TABLE AS old_movements NEW TABLE AS new_movements
  FOR EACH STATEMENT EXECUTE FUNCTION search_sync_letter_movements();--> statement-breakpoint
CREATE TRIGGER search_sync_delete AFTER DELETE ON letter_movements REFERENCING OLD TABLE AS old_movements
  FOR EACH STATEMENT EXECUTE FUNCTION search_sync_letter_movements();--> statement-breakpoint
-- Backfill: every letter already marked (before the access columns are made, so the table is rewritten once).
UPDATE search_documents SET marked_access = search_letter_marked_access(item_id)
WHERE kind = 'letter' AND item_id IN (SELECT letter_id FROM letter_movements);--> statement-breakpoint
ALTER TABLE "search_documents" ADD COLUMN "open_access" text[] GENERATED ALWAYS AS (array_remove(case audience
    when 'public' then array[kind || ':public']
    when 'signed-in' then array[kind || ':signed-in']
    when 'group' then array[kind || ':member:' || group_id::text, kind || ':leads:' || group_id::text, kind || ':role:admin', kind || ':role:director']
    when 'close-group' then array[kind || ':close-group:' || close_group_id::text, kind || ':role:admin']
    when 'letter' then array[kind || ':user:' || uploaded_by::text, kind || ':role:admin', kind || ':role:director'] || marked_access
    when 'repository' then array[kind || ':member:' || group_id::text, kind || ':user:' || uploaded_by::text, kind || ':role:admin', kind || ':role:director']
    else array[]::text[] end, null)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "search_documents" ADD COLUMN "list_access" text[] GENERATED ALWAYS AS (array_remove(case audience
    when 'public' then array[kind || ':public']
    when 'signed-in' then array[kind || ':signed-in']
    when 'group' then array[kind || ':member:' || group_id::text, kind || ':leads:' || group_id::text, kind || ':role:admin', kind || ':role:director']
    when 'close-group' then array[kind || ':close-group:' || close_group_id::text, kind || ':role:admin']
    when 'letter' then array[kind || ':user:' || uploaded_by::text, kind || ':role:admin', kind || ':role:director'] || marked_access
    when 'repository' then array[kind || ':member:' || group_id::text, kind || ':user:' || uploaded_by::text, kind || ':role:admin', kind || ':role:director']
    else array[]::text[] end || case when public_listing then array[kind || ':public'] else array[]::text[] end, null)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "search_documents_meta_idx" ON "search_documents" USING gin ("list_access","meta_vector");--> statement-breakpoint
CREATE INDEX "search_documents_file_idx" ON "search_documents" USING gin ("open_access","file_vector");--> statement-breakpoint
CREATE INDEX "search_documents_title_trgm_idx" ON "search_documents" USING gin ("list_access","title" gin_trgm_ops);
