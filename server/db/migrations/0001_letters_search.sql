-- Letters search (issue 6, docs/decisions/ "letters register"): trigram matching over one lower-cased text per letter.
-- pg_trgm is a contrib extension shipped with PostgreSQL and loaded into PGlite by server/db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- letters.search_text (added by the next migration) is kept by the database, never by the application: the letter's
-- ID, subject, docket no, letter no, category, establishment, language, communicated by and the uploader's name.
CREATE OR REPLACE FUNCTION letters_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := lower(concat_ws(' ',
    NEW.letter_id, NEW.letter_sub, NEW.docket_no, NEW.letter_no, NEW.category, NEW.establishment,
    NEW.letter_language, NEW.letter_commun_by,
    (SELECT u.name FROM users u WHERE u.id = NEW.uploaded_by)));
  RETURN NEW;
END
$$;--> statement-breakpoint
-- When someone's name changes, their letters are found by the new name (the letters trigger recomputes the text).
CREATE OR REPLACE FUNCTION users_name_to_letters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE letters SET search_text = '' WHERE uploaded_by = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER letters_search_text BEFORE INSERT OR UPDATE ON letters FOR EACH ROW EXECUTE FUNCTION letters_search_text();--> statement-breakpoint
CREATE TRIGGER users_name_to_letters AFTER UPDATE OF name ON users FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION users_name_to_letters();
