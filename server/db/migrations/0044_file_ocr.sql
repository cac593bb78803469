-- Text recognised in scans (decision 113): a letter, close-group document, notice, circular or e-file document that is
-- a PDF or an image waits in `file_ocr` as pending from its upload until the OCR job (server/modules/files/ocr.ts) has
-- read it: `done` with its text and the searchable copy the viewer shows (a derived file), `not_needed` when its pages
-- carry their own text, or `failed` with the reason. The original bytes are never changed. One migration, idx 44.
CREATE TABLE "file_ocr" (
	"file_id" uuid PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"detail" text,
	"text" text DEFAULT '' NOT NULL,
	"pdf_id" uuid,
	"pages" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_ocr_status_check" CHECK ("file_ocr"."status" in ('pending', 'done', 'not_needed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "file_ocr" ADD CONSTRAINT "file_ocr_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_ocr" ADD CONSTRAINT "file_ocr_pdf_id_files_id_fk" FOREIGN KEY ("pdf_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_ocr_status_idx" ON "file_ocr" USING btree ("status", "updated_at") WHERE "file_ocr"."status" in ('pending', 'failed');--> statement-breakpoint
-- The files OCR reads: uploaded (never a copy the portal made) into the areas of scanned correspondence, as a PDF or an
-- image. The notification (sent at commit) wakes the job; a restart's backfill picks up what is still pending. Files
-- stored before this migration are marked by `npm run ocr:backfill`, not here.
CREATE OR REPLACE FUNCTION ocr_file_stored() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.derived_from IS NULL
    AND NEW.area IN ('letters', 'close-groups', 'notices', 'circulars', 'efiles')
    AND lower(substring(NEW.original_name FROM '\.([A-Za-z0-9]+)$')) IN ('pdf', 'png', 'jpg', 'jpeg', 'tif', 'tiff') THEN
    INSERT INTO file_ocr (file_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
    PERFORM pg_notify('file_ocr_pending', NEW.id::text);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER ocr_file_stored AFTER INSERT ON files FOR EACH ROW EXECUTE FUNCTION ocr_file_stored();--> statement-breakpoint
-- A file's searchable text: what the extraction read from it, then what OCR recognised in it.
CREATE OR REPLACE FUNCTION search_file_text(fid uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT concat_ws(E'\n',
    nullif((SELECT t.text FROM file_texts t WHERE t.file_id = fid AND t.status = 'done'), ''),
    nullif((SELECT o.text FROM file_ocr o WHERE o.file_id = fid AND o.status = 'done'), ''))
$$;--> statement-breakpoint
-- Either text reaching its row reaches every document of that file, with the other one kept.
CREATE OR REPLACE FUNCTION search_file_text_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_documents SET file_text = search_file_text(NEW.file_id) WHERE file_id = NEW.file_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER search_file_ocr_changed AFTER UPDATE OF status, text ON file_ocr FOR EACH ROW EXECUTE FUNCTION search_file_text_changed();
