-- Drafts for approval on e-files (decision 122): a draft D/n of a file, its versions v1, v2, … each kept, and, once
-- approved, the signed PDF put on the file's correspondence side as an item C/n. One migration, idx 46.
CREATE TYPE "public"."efile_draft_state" AS ENUM('draft', 'put_up', 'changes_asked', 'approved');--> statement-breakpoint
CREATE TYPE "public"."efile_draft_kind" AS ENUM('text', 'docx', 'pdf');--> statement-breakpoint
CREATE TABLE "efile_drafts" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "efile_id" uuid NOT NULL REFERENCES "efiles"("id") ON DELETE cascade,
  "seq" integer NOT NULL,
  "title" text NOT NULL,
  "state" "efile_draft_state" DEFAULT 'draft' NOT NULL,
  "author_id" uuid REFERENCES "users"("id") ON DELETE set null,
  "author_name" text NOT NULL,
  "approver_id" uuid REFERENCES "users"("id") ON DELETE set null,
  "changes_note" text DEFAULT '' NOT NULL,
  "approved_by" uuid REFERENCES "users"("id") ON DELETE set null,
  "approved_at" timestamp with time zone,
  "item_id" uuid REFERENCES "efile_items"("id") ON DELETE restrict,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "efile_drafts_seq" UNIQUE ("efile_id", "seq"),
  CONSTRAINT "efile_drafts_approved_item" CHECK (("state" = 'approved') = ("item_id" IS NOT NULL))
);--> statement-breakpoint
CREATE TABLE "efile_draft_versions" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "draft_id" uuid NOT NULL REFERENCES "efile_drafts"("id") ON DELETE cascade,
  "version" integer NOT NULL,
  "kind" "efile_draft_kind" NOT NULL,
  "body" jsonb,
  "text" text DEFAULT '' NOT NULL,
  "file_id" uuid REFERENCES "files"("id") ON DELETE restrict,
  "author_id" uuid REFERENCES "users"("id") ON DELETE set null,
  "author_name" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "efile_draft_versions_version" UNIQUE ("draft_id", "version"),
  CONSTRAINT "efile_draft_versions_file_once" UNIQUE ("file_id"),
  CONSTRAINT "efile_draft_versions_source" CHECK (("kind" = 'text') = ("body" IS NOT NULL) AND ("kind" = 'text') = ("file_id" IS NULL))
);--> statement-breakpoint
-- A version is kept as it was written: never changed nor removed while its draft stands (decision 122).
CREATE FUNCTION efile_draft_versions_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' OR EXISTS (SELECT 1 FROM efile_drafts WHERE id = OLD.draft_id) THEN
    RAISE EXCEPTION 'version v% of a draft for approval is kept as written', OLD.version
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN OLD;
END
$$;--> statement-breakpoint
CREATE TRIGGER "efile_draft_versions_keep" BEFORE UPDATE OR DELETE ON "efile_draft_versions"
  FOR EACH ROW EXECUTE FUNCTION efile_draft_versions_keep();--> statement-breakpoint
-- An uploaded .docx draft gets its PDF copy by the previews' LibreOffice in the sandbox (decision 084): the e-files'
-- area is among the areas whose uploads wait for a preview.
CREATE OR REPLACE FUNCTION preview_file_stored() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.derived_from IS NULL
    AND NEW.area IN ('notices', 'circulars', 'products', 'advertisements', 'group-files', 'close-groups', 'letters',
      'user-documents', 'efiles')
    AND lower(substring(NEW.original_name FROM '\.([A-Za-z0-9]+)$')) IN ('pdf', 'png', 'jpg', 'jpeg', 'gif', 'webp',
      'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt') THEN
    INSERT INTO file_previews (file_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
    PERFORM pg_notify('file_preview_pending', NEW.id::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The e-files' documents stored before this migration wait for their preview too (as 0033 queued the other areas').
INSERT INTO file_previews (file_id)
  SELECT id FROM files
  WHERE derived_from IS NULL
    AND area = 'efiles'
    AND lower(substring(original_name FROM '\.([A-Za-z0-9]+)$')) IN ('pdf', 'png', 'jpg', 'jpeg', 'gif', 'webp',
      'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt')
  ON CONFLICT DO NOTHING;
