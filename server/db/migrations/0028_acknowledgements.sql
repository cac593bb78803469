CREATE TYPE "public"."acknowledgement_scope" AS ENUM('lab', 'groups', 'roles');--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'acknowledgement_due';--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'acknowledgement_overdue';--> statement-breakpoint
CREATE TABLE "acknowledgement_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lab_item_id" uuid,
	"group_item_id" uuid,
	"deadline" date NOT NULL,
	"span_days" integer NOT NULL,
	"scope" "acknowledgement_scope" NOT NULL,
	"audience_groups" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"audience_roles" "role"[] DEFAULT '{}'::role[] NOT NULL,
	"published_by" uuid,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "acknowledgement_requests_one_item" CHECK (("acknowledgement_requests"."lab_item_id" is null) <> ("acknowledgement_requests"."group_item_id" is null))
);
--> statement-breakpoint
CREATE TABLE "acknowledgements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"group_id" uuid,
	"due_on" date NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opened_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "acknowledgement_requests" ADD CONSTRAINT "acknowledgement_requests_lab_item_id_lab_items_id_fk" FOREIGN KEY ("lab_item_id") REFERENCES "public"."lab_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "acknowledgement_requests" ADD CONSTRAINT "acknowledgement_requests_group_item_id_group_items_id_fk" FOREIGN KEY ("group_item_id") REFERENCES "public"."group_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "acknowledgement_requests" ADD CONSTRAINT "acknowledgement_requests_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "acknowledgements" ADD CONSTRAINT "acknowledgements_request_id_acknowledgement_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."acknowledgement_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "acknowledgements" ADD CONSTRAINT "acknowledgements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "acknowledgements" ADD CONSTRAINT "acknowledgements_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "acknowledgement_requests_lab_item_idx" ON "acknowledgement_requests" USING btree ("lab_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "acknowledgement_requests_group_item_idx" ON "acknowledgement_requests" USING btree ("group_item_id");--> statement-breakpoint
CREATE INDEX "acknowledgement_requests_published_idx" ON "acknowledgement_requests" USING btree ("published_at","id");--> statement-breakpoint
CREATE INDEX "acknowledgement_requests_publisher_idx" ON "acknowledgement_requests" USING btree ("published_by","published_at");--> statement-breakpoint
CREATE UNIQUE INDEX "acknowledgements_request_user_idx" ON "acknowledgements" USING btree ("request_id","user_id");--> statement-breakpoint
CREATE INDEX "acknowledgements_user_pending_idx" ON "acknowledgements" USING btree ("user_id","due_on") WHERE "acknowledgements"."acknowledged_at" is null;--> statement-breakpoint
CREATE INDEX "acknowledgements_user_done_idx" ON "acknowledgements" USING btree ("user_id","acknowledged_at") WHERE "acknowledgements"."acknowledged_at" is not null;--> statement-breakpoint
CREATE INDEX "acknowledgements_request_group_idx" ON "acknowledgements" USING btree ("request_id","group_id","due_on","acknowledged_at");--> statement-breakpoint
CREATE INDEX "acknowledgements_request_pending_idx" ON "acknowledgements" USING btree ("request_id","due_on") WHERE "acknowledgements"."acknowledged_at" is null;--> statement-breakpoint
CREATE INDEX "acknowledgements_group_request_idx" ON "acknowledgements" USING btree ("group_id","request_id");--> statement-breakpoint
CREATE INDEX "acknowledgements_pending_due_idx" ON "acknowledgements" USING btree ("due_on") WHERE "acknowledgements"."acknowledged_at" is null;--> statement-breakpoint
-- Joiners (issue 31 item 2, decision 073): the audience of a request is fixed at publishing, except that a person who
-- comes into it later (approved, moved into an audience group, given an audience role) is added, due the day they
-- join plus the request's span. Only requests whose notice or circular is still current (no 'valid until', or not
-- yet passed) take joiners; the publisher is never in their own audience. A person who leaves `approved`
-- (deactivated, rejected) loses the rows they had not acknowledged; the acknowledged ones stay as the record.
CREATE FUNCTION acknowledgements_joiner() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  today date := (now() AT TIME ZONE 'Asia/Kolkata')::date;
BEGIN
  IF NEW."status" <> 'approved' THEN
    IF TG_OP = 'UPDATE' AND OLD."status" = 'approved' THEN
      DELETE FROM "acknowledgements" WHERE "user_id" = NEW."id" AND "acknowledged_at" IS NULL;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD."status" = 'approved' AND OLD."group_id" IS NOT DISTINCT FROM NEW."group_id"
     AND OLD."role" = NEW."role" THEN
    RETURN NULL;
  END IF;
  INSERT INTO "acknowledgements" ("request_id", "user_id", "group_id", "due_on", "added_at")
  SELECT r."id", NEW."id", NEW."group_id", today + r."span_days", now()
  FROM "acknowledgement_requests" r
  LEFT JOIN "lab_items" li ON li."id" = r."lab_item_id"
  LEFT JOIN "group_items" gi ON gi."id" = r."group_item_id"
  WHERE r."published_by" IS DISTINCT FROM NEW."id"
    AND COALESCE(li."valid_until", gi."valid_until", 'infinity'::date) >= today
    AND CASE r."scope"
      WHEN 'lab' THEN true
      WHEN 'groups' THEN NEW."group_id" = ANY (r."audience_groups")
      ELSE NEW."role" = ANY (r."audience_roles")
        AND (r."group_item_id" IS NULL OR NEW."group_id" = ANY (r."audience_groups"))
    END
  ON CONFLICT ("request_id", "user_id") DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER acknowledgements_joiner AFTER INSERT OR UPDATE OF "status", "group_id", "role" ON "users"
  FOR EACH ROW EXECUTE FUNCTION acknowledgements_joiner();--> statement-breakpoint
-- A row that goes (its notice or circular deleted, its person deactivated or deleted) takes its bell notices with it:
-- they name the row as their source (no orphans).
CREATE FUNCTION acknowledgements_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "notifications" n USING gone WHERE n."source_id" = gone."id"
    AND n."kind" IN ('acknowledgement_due', 'acknowledgement_overdue');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER acknowledgements_gone AFTER DELETE ON "acknowledgements" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION acknowledgements_gone();
