-- e-Files (decision 107): a lab's decision files, with notes (N/n), correspondence (C/n) and movements, apart from the
-- uploads (`files`) and the dak (`letters`). One migration, idx 42.
CREATE TYPE "public"."efile_state" AS ENUM('open', 'parked', 'closed');--> statement-breakpoint
CREATE TYPE "public"."efile_movement_kind" AS ENUM('created', 'sent', 'returned', 'pulled_back', 'parked', 'resumed', 'closed', 'reopened');--> statement-breakpoint
CREATE TABLE "efile_settings" (
  "id" boolean PRIMARY KEY DEFAULT true NOT NULL,
  "number_scheme" text DEFAULT '{lab}/{group}/{head}/{year}/{serial}' NOT NULL,
  "lab_code" text DEFAULT 'LAB' NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "efile_settings_one_row" CHECK ("id")
);--> statement-breakpoint
INSERT INTO "efile_settings" ("id") VALUES (true);--> statement-breakpoint
CREATE TABLE "efile_heads" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "code" text NOT NULL,
  "name" text NOT NULL,
  "active" boolean DEFAULT true NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "efile_heads_code_unique" UNIQUE ("code")
);--> statement-breakpoint
-- The last serial of each series: the lab's code, the group's code and the year (two groups of the same initials
-- share one series, so numbers never collide).
CREATE TABLE "efile_counters" (
  "series" text PRIMARY KEY NOT NULL,
  "last" integer NOT NULL
);--> statement-breakpoint
CREATE TABLE "efiles" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "number" text NOT NULL,
  "subject" text NOT NULL,
  "head_id" uuid NOT NULL REFERENCES "efile_heads"("id"),
  "classification" "document_classification" DEFAULT 'Unclassified' NOT NULL,
  "owner_group_id" uuid NOT NULL REFERENCES "groups"("id"),
  "created_by" uuid NOT NULL REFERENCES "users"("id"),
  "holder_id" uuid NOT NULL REFERENCES "users"("id"),
  "state" "efile_state" DEFAULT 'open' NOT NULL,
  "route" uuid[] DEFAULT '{}' NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  "moved_at" timestamp with time zone DEFAULT now() NOT NULL,
  "search_text" text DEFAULT '' NOT NULL,
  CONSTRAINT "efiles_number_unique" UNIQUE ("number")
);--> statement-breakpoint
CREATE INDEX "efiles_holder_idx" ON "efiles" ("holder_id", "state", "moved_at" DESC, "id");--> statement-breakpoint
CREATE INDEX "efiles_creator_idx" ON "efiles" ("created_by", "moved_at" DESC, "id");--> statement-breakpoint
CREATE INDEX "efiles_owner_group_idx" ON "efiles" ("owner_group_id", "moved_at" DESC);--> statement-breakpoint
CREATE INDEX "efiles_search_idx" ON "efiles" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
-- Everyone the file passed through (creator, senders, holders): who sees it besides the head, directors and admins.
CREATE TABLE "efile_participants" (
  "efile_id" uuid NOT NULL REFERENCES "efiles"("id") ON DELETE cascade,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  PRIMARY KEY ("efile_id", "user_id")
);--> statement-breakpoint
CREATE INDEX "efile_participants_user_idx" ON "efile_participants" ("user_id", "efile_id");--> statement-breakpoint
CREATE TABLE "efile_copies" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "efile_id" uuid NOT NULL REFERENCES "efiles"("id") ON DELETE cascade,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "sent_by" uuid REFERENCES "users"("id") ON DELETE set null,
  "sent_at" timestamp with time zone DEFAULT now() NOT NULL,
  "seen_at" timestamp with time zone,
  CONSTRAINT "efile_copies_once" UNIQUE ("efile_id", "user_id")
);--> statement-breakpoint
CREATE INDEX "efile_copies_user_idx" ON "efile_copies" ("user_id", "efile_id");--> statement-breakpoint
CREATE TABLE "efile_notes" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "efile_id" uuid NOT NULL REFERENCES "efiles"("id") ON DELETE cascade,
  "seq" integer NOT NULL,
  "body" jsonb NOT NULL,
  "text" text DEFAULT '' NOT NULL,
  "author_id" uuid REFERENCES "users"("id") ON DELETE set null,
  "author_name" text NOT NULL,
  "author_designation" text DEFAULT '' NOT NULL,
  "permanent" boolean DEFAULT false NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  "permanent_at" timestamp with time zone,
  CONSTRAINT "efile_notes_seq" UNIQUE ("efile_id", "seq") DEFERRABLE INITIALLY DEFERRED
);--> statement-breakpoint
CREATE INDEX "efile_notes_text_idx" ON "efile_notes" USING gin (lower("text") gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
-- Who changed a draft note, and what it said before (the history of a yellow note).
CREATE TABLE "efile_note_versions" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "note_id" uuid NOT NULL REFERENCES "efile_notes"("id") ON DELETE cascade,
  "editor_id" uuid REFERENCES "users"("id") ON DELETE set null,
  "editor_name" text NOT NULL,
  "body" jsonb NOT NULL,
  "at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "efile_note_versions_note_idx" ON "efile_note_versions" ("note_id", "at");--> statement-breakpoint
CREATE TABLE "efile_items" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "efile_id" uuid NOT NULL REFERENCES "efiles"("id") ON DELETE cascade,
  "seq" integer NOT NULL,
  "title" text NOT NULL,
  "letter_id" uuid REFERENCES "letters"("id") ON DELETE restrict,
  "file_id" uuid REFERENCES "files"("id") ON DELETE restrict,
  "text" text DEFAULT '' NOT NULL,
  "added_by" uuid REFERENCES "users"("id") ON DELETE set null,
  "added_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "efile_items_seq" UNIQUE ("efile_id", "seq"),
  CONSTRAINT "efile_items_letter_once" UNIQUE ("letter_id"),
  CONSTRAINT "efile_items_file_once" UNIQUE ("file_id"),
  CONSTRAINT "efile_items_one_source" CHECK (("letter_id" IS NULL) <> ("file_id" IS NULL))
);--> statement-breakpoint
CREATE INDEX "efile_items_text_idx" ON "efile_items" USING gin (lower("title" || ' ' || "text") gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
CREATE TABLE "efile_movements" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "efile_id" uuid NOT NULL REFERENCES "efiles"("id") ON DELETE cascade,
  "kind" "efile_movement_kind" NOT NULL,
  "from_user_id" uuid REFERENCES "users"("id") ON DELETE set null,
  "to_user_id" uuid REFERENCES "users"("id") ON DELETE set null,
  "acted_by" uuid REFERENCES "users"("id") ON DELETE set null,
  "remarks" text DEFAULT '' NOT NULL,
  "due_date" date,
  "priority" "dak_priority" DEFAULT 'Normal' NOT NULL,
  "at" timestamp with time zone DEFAULT now() NOT NULL,
  "opened_at" timestamp with time zone,
  "received_at" timestamp with time zone,
  "pulled_back_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "efile_movements_file_idx" ON "efile_movements" ("efile_id", "at");--> statement-breakpoint
-- "Sent by me, not yet received": the open sendings of each sender.
CREATE INDEX "efile_movements_in_transit_idx" ON "efile_movements" ("from_user_id", "at" DESC)
  WHERE "kind" IN ('sent', 'returned') AND "received_at" IS NULL AND "pulled_back_at" IS NULL;--> statement-breakpoint
-- Pendency and overdue: what each officer was sent and holds with a due date.
CREATE INDEX "efile_movements_to_idx" ON "efile_movements" ("to_user_id", "due_date") WHERE "kind" IN ('sent', 'returned');--> statement-breakpoint
-- A permanent (green) note is never changed nor removed, by the portal or by anyone with SQL (decision 107).
CREATE FUNCTION efile_notes_keep_permanent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.permanent THEN
    RAISE EXCEPTION 'note N/% of this e-file is permanent and cannot be changed or removed', OLD.seq
      USING ERRCODE = 'check_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "efile_notes_keep_permanent" BEFORE UPDATE OR DELETE ON "efile_notes"
  FOR EACH ROW EXECUTE FUNCTION efile_notes_keep_permanent();--> statement-breakpoint
-- The search of a file by number and subject (lower case), kept by the database like the letters' search text.
CREATE FUNCTION efiles_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := lower(NEW.number || ' ' || NEW.subject);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "efiles_search_text" BEFORE INSERT OR UPDATE OF "number", "subject" ON "efiles"
  FOR EACH ROW EXECUTE FUNCTION efiles_search_text();
--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'efile_sent';
