-- The trusted roots and the cached checks of stored signed PDFs (decision 123), and the dispatch register with its
-- gapless outward numbers (decision 120). One migration, idx 49.
CREATE TABLE "trusted_roots" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "label" text NOT NULL,
  "pem" text NOT NULL,
  "subject" text NOT NULL,
  "fingerprint256" text NOT NULL,
  "valid_to" timestamp with time zone NOT NULL,
  "added_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "trusted_roots_fingerprint_unique" UNIQUE ("fingerprint256")
);--> statement-breakpoint
-- A stored file never changes: its check is kept, under the list of roots it was checked against (roots_key).
CREATE TABLE "signature_checks" (
  "file_id" uuid PRIMARY KEY NOT NULL REFERENCES "files"("id") ON DELETE CASCADE,
  "roots_key" text NOT NULL,
  "report" jsonb NOT NULL,
  "checked_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- The last outward number of each lab and year: updated in the dispatch's transaction, so a number is used or not
-- at all (a sequence would leave gaps on rollback).
CREATE TABLE "dispatch_counters" (
  "lab_id" uuid NOT NULL REFERENCES "labs"("id") ON DELETE CASCADE,
  "year" integer NOT NULL,
  "last" integer NOT NULL,
  CONSTRAINT "dispatch_counters_pk" PRIMARY KEY ("lab_id", "year")
);--> statement-breakpoint
CREATE TABLE "dispatches" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "lab_id" uuid NOT NULL REFERENCES "labs"("id") ON DELETE CASCADE,
  "year" integer NOT NULL,
  "serial" integer NOT NULL,
  "outward_number" text NOT NULL,
  "efile_id" uuid NOT NULL REFERENCES "efiles"("id") ON DELETE RESTRICT,
  "item_id" uuid NOT NULL REFERENCES "efile_items"("id") ON DELETE RESTRICT,
  "efile_number" text NOT NULL,
  "item_seq" integer NOT NULL,
  "file_id" uuid NOT NULL REFERENCES "files"("id") ON DELETE RESTRICT,
  "subject" text NOT NULL,
  "classification" text NOT NULL,
  "dispatch_date" date NOT NULL,
  "mode" text NOT NULL,
  "dispatched_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "search_text" text DEFAULT '' NOT NULL,
  CONSTRAINT "dispatches_serial_unique" UNIQUE ("lab_id", "year", "serial"),
  CONSTRAINT "dispatches_outward_number_unique" UNIQUE ("outward_number"),
  CONSTRAINT "dispatches_item_unique" UNIQUE ("item_id"),
  CONSTRAINT "dispatches_mode_check" CHECK ("mode" in ('post', 'speed_post', 'hand', 'email'))
);--> statement-breakpoint
CREATE INDEX "dispatches_date_idx" ON "dispatches" ("dispatch_date" DESC, "serial" DESC);--> statement-breakpoint
CREATE INDEX "dispatches_efile_idx" ON "dispatches" ("efile_id");--> statement-breakpoint
CREATE INDEX "dispatches_search_idx" ON "dispatches" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE TABLE "dispatch_recipients" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "dispatch_id" uuid NOT NULL REFERENCES "dispatches"("id") ON DELETE CASCADE,
  "position" integer NOT NULL,
  "name" text NOT NULL,
  "address" text DEFAULT '' NOT NULL,
  "email" text,
  "mail_id" uuid
);--> statement-breakpoint
CREATE INDEX "dispatch_recipients_dispatch_idx" ON "dispatch_recipients" ("dispatch_id", "position");
--> statement-breakpoint
-- The portal search finds dispatched letters (decision 120) by outward number, subject, file and recipients, for every
-- signed-in reader, as the register shows them; those of Confidential and Secret files are left out of the search (the
-- register shows them to the cleared). The signed PDF's own text is not indexed here: it stays behind its file's rule.
CREATE FUNCTION search_index_dispatch(did uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE kind = 'dispatch' AND item_id = did;
  INSERT INTO search_documents (kind, item_id, title, body, url, date, audience, classification)
  SELECT 'dispatch', d.id, d.outward_number || ' — ' || d.subject, d.search_text,
    '/dispatch-register?q=' || d.outward_number, d.dispatch_date::timestamptz, 'signed-in',
    nullif(d.classification, 'Unclassified')
  FROM dispatches d WHERE d.id = did AND d.classification NOT IN ('Confidential', 'Secret');
END
$$;--> statement-breakpoint
CREATE FUNCTION search_sync_dispatch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_index_dispatch(CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER search_sync AFTER INSERT OR UPDATE OR DELETE ON dispatches FOR EACH ROW EXECUTE FUNCTION search_sync_dispatch();
