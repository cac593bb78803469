CREATE TYPE "public"."dak_box" AS ENUM('pending', 'received', 'closed');--> statement-breakpoint
CREATE TYPE "public"."dak_outcome" AS ENUM('closed', 'forwarded', 'returned');--> statement-breakpoint
CREATE TYPE "public"."dak_priority" AS ENUM('Normal', 'Urgent', 'Most Immediate');--> statement-breakpoint
CREATE TYPE "public"."notification_kind" AS ENUM('letter_marked', 'letter_returned', 'letter_overdue');--> statement-breakpoint
CREATE TABLE "letter_movements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"letter_id" uuid NOT NULL,
	"from_user_id" uuid,
	"to_user_id" uuid NOT NULL,
	"remarks" text DEFAULT '' NOT NULL,
	"due_date" date,
	"priority" "dak_priority" DEFAULT 'Normal' NOT NULL,
	"classified" boolean DEFAULT false NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"received_at" timestamp with time zone,
	"box" "dak_box" DEFAULT 'pending' NOT NULL,
	"ended_at" timestamp with time zone,
	"outcome" "dak_outcome",
	"disposal" text,
	"file_no" text,
	"reply_ref" text
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" "notification_kind" NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"actor_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "classified_clearance" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "letter_movements" ADD CONSTRAINT "letter_movements_letter_id_letters_id_fk" FOREIGN KEY ("letter_id") REFERENCES "public"."letters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letter_movements" ADD CONSTRAINT "letter_movements_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letter_movements" ADD CONSTRAINT "letter_movements_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "letter_movements_inbox_idx" ON "letter_movements" USING btree ("to_user_id","box","marked_at","id");--> statement-breakpoint
CREATE INDEX "letter_movements_letter_idx" ON "letter_movements" USING btree ("letter_id","marked_at");--> statement-breakpoint
CREATE INDEX "letter_movements_from_idx" ON "letter_movements" USING btree ("from_user_id","marked_at");--> statement-breakpoint
CREATE INDEX "letter_movements_open_idx" ON "letter_movements" USING btree ("to_user_id","due_date","classified","marked_at") WHERE "letter_movements"."box" <> 'closed';--> statement-breakpoint
CREATE INDEX "letter_movements_open_age_idx" ON "letter_movements" USING btree ("marked_at","id","to_user_id","due_date","classified") WHERE "letter_movements"."box" <> 'closed';--> statement-breakpoint
CREATE INDEX "letter_movements_closed_idx" ON "letter_movements" USING btree ("ended_at","to_user_id","classified") WHERE "letter_movements"."outcome" = 'closed';--> statement-breakpoint
CREATE INDEX "letter_movements_marked_due_idx" ON "letter_movements" USING btree ("from_user_id","due_date") WHERE "letter_movements"."box" <> 'closed' and "letter_movements"."due_date" is not null;--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_source_idx" ON "notifications" USING btree ("source_id","kind","user_id");