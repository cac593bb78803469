DROP INDEX "search_documents_meta_idx";--> statement-breakpoint
DROP INDEX "search_documents_file_idx";--> statement-breakpoint
DROP INDEX "search_documents_title_trgm_idx";--> statement-breakpoint
ALTER TABLE "search_documents" DROP CONSTRAINT "search_documents_kind_item_id_pk";--> statement-breakpoint
ALTER TABLE "search_documents" ADD CONSTRAINT "search_documents_item_id_kind_pk" PRIMARY KEY("item_id","kind");--> statement-breakpoint
ALTER TABLE "search_documents" ADD COLUMN "open_access" text[] GENERATED ALWAYS AS (array_remove(case audience
    when 'public' then array[kind || ':public']
    when 'signed-in' then array[kind || ':signed-in']
    when 'group' then array[kind || ':member:' || group_id::text, kind || ':leads:' || group_id::text, kind || ':role:admin', kind || ':role:director']
    when 'close-group' then array[kind || ':close-group:' || close_group_id::text, kind || ':role:admin']
    when 'letter' then array[kind || ':user:' || uploaded_by::text, kind || ':item:' || item_id::text, kind || ':role:admin', kind || ':role:director']
    when 'repository' then array[kind || ':member:' || group_id::text, kind || ':user:' || uploaded_by::text, kind || ':role:admin', kind || ':role:director']
    else array[]::text[] end, null)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "search_documents" ADD COLUMN "list_access" text[] GENERATED ALWAYS AS (array_remove(case audience
    when 'public' then array[kind || ':public']
    when 'signed-in' then array[kind || ':signed-in']
    when 'group' then array[kind || ':member:' || group_id::text, kind || ':leads:' || group_id::text, kind || ':role:admin', kind || ':role:director']
    when 'close-group' then array[kind || ':close-group:' || close_group_id::text, kind || ':role:admin']
    when 'letter' then array[kind || ':user:' || uploaded_by::text, kind || ':item:' || item_id::text, kind || ':role:admin', kind || ':role:director']
    when 'repository' then array[kind || ':member:' || group_id::text, kind || ':user:' || uploaded_by::text, kind || ':role:admin', kind || ':role:director']
    else array[]::text[] end || case when public_listing then array[kind || ':public'] else array[]::text[] end, null)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "search_documents_date_idx" ON "search_documents" USING btree ("date","kind","item_id");--> statement-breakpoint
CREATE INDEX "search_documents_meta_idx" ON "search_documents" USING gin ("list_access","meta_vector");--> statement-breakpoint
CREATE INDEX "search_documents_file_idx" ON "search_documents" USING gin ("open_access","file_vector");--> statement-breakpoint
CREATE INDEX "search_documents_title_trgm_idx" ON "search_documents" USING gin ("list_access","title" gin_trgm_ops);