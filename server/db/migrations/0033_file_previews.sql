ALTER TABLE "files" ADD COLUMN "derived_from" uuid;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_derived_from_files_id_fk" FOREIGN KEY ("derived_from") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_derived_from_idx" ON "files" USING btree ("derived_from");--> statement-breakpoint
CREATE TABLE "file_previews" (
	"file_id" uuid PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"thumbnail_id" uuid,
	"pdf_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_previews_status_check" CHECK ("file_previews"."status" in ('pending', 'ready', 'unavailable'))
);
--> statement-breakpoint
ALTER TABLE "file_previews" ADD CONSTRAINT "file_previews_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_previews" ADD CONSTRAINT "file_previews_thumbnail_id_files_id_fk" FOREIGN KEY ("thumbnail_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_previews" ADD CONSTRAINT "file_previews_pdf_id_files_id_fk" FOREIGN KEY ("pdf_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- A document a person uploaded (never a copy the portal made) of a type that has a preview waits as 'pending'; the
-- notification (sent at commit) wakes the job (previews.jobs.ts). Restarts pick up what is still pending, and so does
-- a restore (decision 086): the rows of files stored before this migration are queued here too.
CREATE OR REPLACE FUNCTION preview_file_stored() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.derived_from IS NULL
    AND NEW.area IN ('notices', 'circulars', 'products', 'advertisements', 'group-files', 'close-groups', 'letters',
      'user-documents')
    AND lower(substring(NEW.original_name FROM '\.([A-Za-z0-9]+)$')) IN ('pdf', 'png', 'jpg', 'jpeg', 'gif', 'webp',
      'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt') THEN
    INSERT INTO file_previews (file_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
    PERFORM pg_notify('file_preview_pending', NEW.id::text);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER preview_file_stored AFTER INSERT ON files FOR EACH ROW EXECUTE FUNCTION preview_file_stored();--> statement-breakpoint
INSERT INTO file_previews (file_id)
  SELECT id FROM files
  WHERE derived_from IS NULL
    AND area IN ('notices', 'circulars', 'products', 'advertisements', 'group-files', 'close-groups', 'letters',
      'user-documents')
    AND lower(substring(original_name FROM '\.([A-Za-z0-9]+)$')) IN ('pdf', 'png', 'jpg', 'jpeg', 'gif', 'webp',
      'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt');
