-- Decision 102: the portal's language follows the account once the person has chosen one. The moment of that choice
-- tells a choice from the default English. An account already in Hindi chose it (Hindi is never the default).
ALTER TABLE "users" ADD COLUMN "language_chosen_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "users" SET "language_chosen_at" = now() WHERE "language" = 'hi';
