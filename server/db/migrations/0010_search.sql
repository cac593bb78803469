CREATE TABLE "file_texts" (
	"file_id" uuid PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_documents" (
	"kind" text NOT NULL,
	"item_id" uuid NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"file_id" uuid,
	"file_text" text DEFAULT '' NOT NULL,
	"url" text NOT NULL,
	"file_url" text,
	"date" timestamp with time zone NOT NULL,
	"audience" text NOT NULL,
	"public_listing" boolean DEFAULT false NOT NULL,
	"group_id" uuid,
	"close_group_id" uuid,
	"uploaded_by" uuid,
	"classification" text,
	"meta_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('english', body), 'B') || setweight(to_tsvector('simple', body), 'B')) STORED NOT NULL,
	"file_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', file_text) || to_tsvector('simple', file_text)) STORED NOT NULL,
	CONSTRAINT "search_documents_kind_item_id_pk" PRIMARY KEY("kind","item_id")
);
--> statement-breakpoint
ALTER TABLE "file_texts" ADD CONSTRAINT "file_texts_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_texts_pending_idx" ON "file_texts" USING btree ("file_id") WHERE "file_texts"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "search_documents_meta_idx" ON "search_documents" USING gin ("meta_vector");--> statement-breakpoint
CREATE INDEX "search_documents_file_idx" ON "search_documents" USING gin ("file_vector");--> statement-breakpoint
CREATE INDEX "search_documents_title_trgm_idx" ON "search_documents" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "search_documents_file_id_idx" ON "search_documents" USING btree ("file_id");