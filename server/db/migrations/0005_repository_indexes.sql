CREATE INDEX "software_repos_file_idx" ON "software_repos" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "software_repos_uploaded_by_idx" ON "software_repos" USING btree ("uploaded_by");--> statement-breakpoint
CREATE INDEX "trial_repos_file_idx" ON "trial_repos" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "trial_repos_uploaded_by_idx" ON "trial_repos" USING btree ("uploaded_by");