CREATE TYPE "public"."role" AS ENUM('employee', 'director', 'associate_director', 'pending_director', 'admin');--> statement-breakpoint
CREATE TYPE "public"."user_status" AS ENUM('pending', 'approved', 'rejected', 'deactivated');--> statement-breakpoint
CREATE TYPE "public"."contact_type" AS ENUM('Email', 'Phone', 'Address', 'Other');--> statement-breakpoint
CREATE TYPE "public"."group_item_kind" AS ENUM('notice', 'circular', 'project', 'patent', 'technology', 'course', 'publication');--> statement-breakpoint
CREATE TYPE "public"."lab_item_kind" AS ENUM('notice', 'circular', 'product', 'advertisement');--> statement-breakpoint
CREATE TYPE "public"."letter_classification" AS ENUM('Normal', 'Confidential', 'Secret');--> statement-breakpoint
CREATE TYPE "public"."software_repo_type" AS ENUM('Document', 'Code', 'ZIP File');--> statement-breakpoint
CREATE TABLE "files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"area" text NOT NULL,
	"stored_name" text NOT NULL,
	"original_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" bigint NOT NULL,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" "role" DEFAULT 'employee' NOT NULL,
	"status" "user_status" DEFAULT 'pending' NOT NULL,
	"status_reason" text,
	"lab_id" uuid,
	"group_id" uuid,
	"photo_file_id" uuid,
	"about" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"dob" date,
	"mobile" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"gender" text DEFAULT '' NOT NULL,
	"marital_status" text DEFAULT '' NOT NULL,
	"blood_group" text DEFAULT '' NOT NULL,
	"emergency_name" text DEFAULT '' NOT NULL,
	"emergency_relationship" text DEFAULT '' NOT NULL,
	"emergency_mobile" text DEFAULT '' NOT NULL,
	"designation" text DEFAULT '' NOT NULL,
	"cadre" text DEFAULT '' NOT NULL,
	"intercom" text DEFAULT '' NOT NULL,
	"internet_email" text DEFAULT '' NOT NULL,
	"drona_email" text DEFAULT '' NOT NULL,
	"pis" text DEFAULT '' NOT NULL,
	"aebas_id" text DEFAULT '' NOT NULL,
	"joining_date" date,
	"skills" text[] DEFAULT '{}'::text[] NOT NULL,
	"qualifications" text[] DEFAULT '{}'::text[] NOT NULL,
	"employment_from" date,
	"employment_to" date,
	"linkedin" text DEFAULT '' NOT NULL,
	"twitter" text DEFAULT '' NOT NULL,
	"facebook" text DEFAULT '' NOT NULL,
	"github" text DEFAULT '' NOT NULL,
	"sessions_valid_after" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_at" timestamp with time zone,
	"approved_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_infos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lab_id" uuid,
	"group_id" uuid,
	"type" "contact_type" NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"value" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "contact_infos_one_owner" CHECK (("contact_infos"."lab_id" is null) <> ("contact_infos"."group_id" is null))
);
--> statement-breakpoint
CREATE TABLE "director_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lab_id" uuid,
	"group_id" uuid,
	"user_id" uuid,
	"name" text DEFAULT '' NOT NULL,
	"designation" text NOT NULL,
	"from" date NOT NULL,
	"to" date,
	"about" text DEFAULT '' NOT NULL,
	"image_file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "director_entries_one_owner" CHECK (("director_entries"."lab_id" is null) <> ("director_entries"."group_id" is null))
);
--> statement-breakpoint
CREATE TABLE "group_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"group_id" uuid NOT NULL,
	"kind" "group_item_kind" NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"file_id" uuid,
	"valid_until" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lab_id" uuid,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"about" text DEFAULT '' NOT NULL,
	"vision" text DEFAULT '' NOT NULL,
	"mission" text DEFAULT '' NOT NULL,
	"history" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lab_id" uuid NOT NULL,
	"kind" "lab_item_kind" NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"file_id" uuid,
	"valid_until" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lab_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"file_id" uuid,
	"web_file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "labs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"domain" text DEFAULT '' NOT NULL,
	"about" text DEFAULT '' NOT NULL,
	"vision" text DEFAULT '' NOT NULL,
	"mission" text DEFAULT '' NOT NULL,
	"history" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "office_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lab_id" uuid,
	"group_id" uuid,
	"name" text NOT NULL,
	"designation" text NOT NULL,
	"contact_number" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "office_members_one_owner" CHECK (("office_members"."lab_id" is null) <> ("office_members"."group_id" is null))
);
--> statement-breakpoint
CREATE TABLE "close_group_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"close_group_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"uploaded_by" uuid,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "close_group_members" (
	"close_group_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "close_group_members_close_group_id_user_id_pk" PRIMARY KEY("close_group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "close_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"group_name" text NOT NULL,
	"group_purpose" text NOT NULL,
	"duration_from" date NOT NULL,
	"duration_to" date NOT NULL,
	"admin_remarks" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "close_groups_duration" CHECK ("close_groups"."duration_from" <= "close_groups"."duration_to")
);
--> statement-breakpoint
CREATE TABLE "letter_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "letter_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"letter_id" uuid NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"changes" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "letters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"letter_id" text NOT NULL,
	"letter_sub" text NOT NULL,
	"letter_no" text NOT NULL,
	"letter_date" date NOT NULL,
	"docket_no" text NOT NULL,
	"docket_date" date NOT NULL,
	"category" text NOT NULL,
	"establishment" text NOT NULL,
	"letter_language" text NOT NULL,
	"letter_commun_by" text NOT NULL,
	"letter_upload_date" timestamp with time zone DEFAULT now() NOT NULL,
	"classification" "letter_classification" DEFAULT 'Normal' NOT NULL,
	"file_id" uuid,
	"uploaded_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "software_repos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"group_id" uuid NOT NULL,
	"type" "software_repo_type" NOT NULL,
	"github_url" text DEFAULT '' NOT NULL,
	"cloned_repo_path" text DEFAULT '' NOT NULL,
	"metadata" jsonb,
	"file_id" uuid,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trial_repos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"group_id" uuid NOT NULL,
	"type" text NOT NULL,
	"github_url" text DEFAULT '' NOT NULL,
	"cloned_repo_path" text DEFAULT '' NOT NULL,
	"size_in_kb" double precision,
	"duration" double precision,
	"language_used" text[] DEFAULT '{}'::text[] NOT NULL,
	"file_id" uuid,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" uuid,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_documents" ADD CONSTRAINT "user_documents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_documents" ADD CONSTRAINT "user_documents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_documents" ADD CONSTRAINT "user_documents_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_lab_id_labs_id_fk" FOREIGN KEY ("lab_id") REFERENCES "public"."labs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_photo_file_id_files_id_fk" FOREIGN KEY ("photo_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_infos" ADD CONSTRAINT "contact_infos_lab_id_labs_id_fk" FOREIGN KEY ("lab_id") REFERENCES "public"."labs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_infos" ADD CONSTRAINT "contact_infos_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "director_entries" ADD CONSTRAINT "director_entries_lab_id_labs_id_fk" FOREIGN KEY ("lab_id") REFERENCES "public"."labs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "director_entries" ADD CONSTRAINT "director_entries_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "director_entries" ADD CONSTRAINT "director_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "director_entries" ADD CONSTRAINT "director_entries_image_file_id_files_id_fk" FOREIGN KEY ("image_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_items" ADD CONSTRAINT "group_items_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_items" ADD CONSTRAINT "group_items_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_lab_id_labs_id_fk" FOREIGN KEY ("lab_id") REFERENCES "public"."labs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_items" ADD CONSTRAINT "lab_items_lab_id_labs_id_fk" FOREIGN KEY ("lab_id") REFERENCES "public"."labs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_items" ADD CONSTRAINT "lab_items_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_photos" ADD CONSTRAINT "lab_photos_lab_id_labs_id_fk" FOREIGN KEY ("lab_id") REFERENCES "public"."labs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_photos" ADD CONSTRAINT "lab_photos_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_photos" ADD CONSTRAINT "lab_photos_web_file_id_files_id_fk" FOREIGN KEY ("web_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "office_members" ADD CONSTRAINT "office_members_lab_id_labs_id_fk" FOREIGN KEY ("lab_id") REFERENCES "public"."labs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "office_members" ADD CONSTRAINT "office_members_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "close_group_documents" ADD CONSTRAINT "close_group_documents_close_group_id_close_groups_id_fk" FOREIGN KEY ("close_group_id") REFERENCES "public"."close_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "close_group_documents" ADD CONSTRAINT "close_group_documents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "close_group_documents" ADD CONSTRAINT "close_group_documents_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "close_group_members" ADD CONSTRAINT "close_group_members_close_group_id_close_groups_id_fk" FOREIGN KEY ("close_group_id") REFERENCES "public"."close_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "close_group_members" ADD CONSTRAINT "close_group_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "close_groups" ADD CONSTRAINT "close_groups_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letter_history" ADD CONSTRAINT "letter_history_letter_id_letters_id_fk" FOREIGN KEY ("letter_id") REFERENCES "public"."letters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letter_history" ADD CONSTRAINT "letter_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letters" ADD CONSTRAINT "letters_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letters" ADD CONSTRAINT "letters_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letters" ADD CONSTRAINT "letters_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "software_repos" ADD CONSTRAINT "software_repos_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "software_repos" ADD CONSTRAINT "software_repos_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "software_repos" ADD CONSTRAINT "software_repos_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_repos" ADD CONSTRAINT "trial_repos_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_repos" ADD CONSTRAINT "trial_repos_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_repos" ADD CONSTRAINT "trial_repos_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_logs" ADD CONSTRAINT "activity_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "files_area_stored_name_idx" ON "files" USING btree ("area","stored_name");--> statement-breakpoint
CREATE INDEX "files_uploaded_by_idx" ON "files" USING btree ("uploaded_by");--> statement-breakpoint
CREATE INDEX "user_documents_user_idx" ON "user_documents" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_status_idx" ON "users" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "users_group_idx" ON "users" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role");--> statement-breakpoint
CREATE INDEX "users_name_idx" ON "users" USING btree ("name");--> statement-breakpoint
CREATE INDEX "contact_infos_lab_idx" ON "contact_infos" USING btree ("lab_id","position");--> statement-breakpoint
CREATE INDEX "contact_infos_group_idx" ON "contact_infos" USING btree ("group_id","position");--> statement-breakpoint
CREATE INDEX "director_entries_lab_idx" ON "director_entries" USING btree ("lab_id","from");--> statement-breakpoint
CREATE INDEX "director_entries_group_idx" ON "director_entries" USING btree ("group_id","from");--> statement-breakpoint
CREATE INDEX "director_entries_user_idx" ON "director_entries" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "group_items_group_kind_idx" ON "group_items" USING btree ("group_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "groups_name_idx" ON "groups" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "lab_items_lab_kind_idx" ON "lab_items" USING btree ("lab_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "lab_photos_lab_idx" ON "lab_photos" USING btree ("lab_id","created_at");--> statement-breakpoint
CREATE INDEX "office_members_lab_idx" ON "office_members" USING btree ("lab_id","position");--> statement-breakpoint
CREATE INDEX "office_members_group_idx" ON "office_members" USING btree ("group_id","position");--> statement-breakpoint
CREATE INDEX "close_group_documents_group_idx" ON "close_group_documents" USING btree ("close_group_id","uploaded_at");--> statement-breakpoint
CREATE INDEX "close_group_members_user_idx" ON "close_group_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "letter_history_letter_idx" ON "letter_history" USING btree ("letter_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "letters_letter_id_idx" ON "letters" USING btree ("letter_id");--> statement-breakpoint
CREATE INDEX "letters_upload_date_idx" ON "letters" USING btree ("letter_upload_date");--> statement-breakpoint
CREATE INDEX "letters_uploaded_by_idx" ON "letters" USING btree ("uploaded_by","letter_upload_date");--> statement-breakpoint
CREATE INDEX "software_repos_group_idx" ON "software_repos" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "trial_repos_group_idx" ON "trial_repos" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "activity_logs_timestamp_idx" ON "activity_logs" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "activity_logs_user_idx" ON "activity_logs" USING btree ("user_id","timestamp");