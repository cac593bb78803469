-- Decision 031: pg_trgm takes its trigrams from ASCII letters and digits only when the database's locale is C (the
-- embedded cluster's, server/db/embedded.ts), so `title ILIKE '%अग्निशमन%'` had no trigram to look up: the trigram
-- index answered "every document this reader may list", and each was read and tested (3–5 s at 100,000 documents for
-- any reader who is not an admin or a director). These are the title's three-character pieces, of any script,
-- lower-cased as ILIKE compares them: a title containing the query contains each of the query's pieces, so the search
-- looks them up here (search.service.ts) and still tests the ILIKE itself.
CREATE OR REPLACE FUNCTION search_title_grams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(lower(t), i, 3)), '{}')
  FROM generate_series(1, char_length(t) - 2) i
$$;--> statement-breakpoint
CREATE INDEX "search_documents_title_grams_idx" ON "search_documents" USING gin ("list_access",search_title_grams("title"));
