-- Logs shipped to the lab's collector (decision 125): warnings and worse of the server's log wait in `syslog_outbox`
-- until the collector has read them; the audit trail is sent from the trail itself, `syslog_cursor` keeping the last
-- `seq` the collector read, so neither is lost across a restart of the portal or an outage of the collector.
CREATE TABLE "syslog_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"logged_at" timestamp (3) with time zone NOT NULL,
	"severity" integer NOT NULL,
	"message" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "syslog_cursor" (
	"one" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"audit_seq" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "syslog_cursor_one" CHECK ("syslog_cursor"."one" = 1)
);
