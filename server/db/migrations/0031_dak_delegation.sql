ALTER TYPE "public"."dak_outcome" ADD VALUE 'pulled_back';--> statement-breakpoint
CREATE TABLE "dak_delegations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"officer_id" uuid NOT NULL,
	"delegate_id" uuid NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" uuid,
	CONSTRAINT "dak_delegations_dates" CHECK ("dak_delegations"."from_date" <= "dak_delegations"."to_date"),
	CONSTRAINT "dak_delegations_not_self" CHECK ("dak_delegations"."officer_id" <> "dak_delegations"."delegate_id")
);
--> statement-breakpoint
ALTER TABLE "dak_delegations" ADD CONSTRAINT "dak_delegations_officer_id_users_id_fk" FOREIGN KEY ("officer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dak_delegations" ADD CONSTRAINT "dak_delegations_delegate_id_users_id_fk" FOREIGN KEY ("delegate_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dak_delegations" ADD CONSTRAINT "dak_delegations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dak_delegations" ADD CONSTRAINT "dak_delegations_ended_by_users_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dak_delegations_delegate_idx" ON "dak_delegations" USING btree ("delegate_id","to_date") WHERE "dak_delegations"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "dak_delegations_officer_idx" ON "dak_delegations" USING btree ("officer_id","to_date");--> statement-breakpoint
ALTER TABLE "letter_movements" ADD COLUMN "for_information" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "letter_movements" ADD COLUMN "marked_by" uuid;--> statement-breakpoint
ALTER TABLE "letter_movements" ADD COLUMN "received_by" uuid;--> statement-breakpoint
ALTER TABLE "letter_movements" ADD COLUMN "ended_by" uuid;--> statement-breakpoint
ALTER TABLE "letter_movements" ADD CONSTRAINT "letter_movements_marked_by_users_id_fk" FOREIGN KEY ("marked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letter_movements" ADD CONSTRAINT "letter_movements_received_by_users_id_fk" FOREIGN KEY ("received_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letter_movements" ADD CONSTRAINT "letter_movements_ended_by_users_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
