-- Decision 090: a first single sign-on whose email is an unlinked account's, unverified by the provider, waits here for
-- an administrator to link it (one row per issuer and subject); and the admins' bell tells of it.
ALTER TYPE "public"."notification_kind" ADD VALUE 'sso_link_requested';--> statement-breakpoint
CREATE TABLE "sso_link_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"user_id" uuid NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sso_link_requests" ADD CONSTRAINT "sso_link_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sso_link_requests_identity_idx" ON "sso_link_requests" USING btree ("issuer","subject");--> statement-breakpoint
CREATE INDEX "sso_link_requests_user_idx" ON "sso_link_requests" USING btree ("user_id");