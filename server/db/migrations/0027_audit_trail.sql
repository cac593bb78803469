CREATE TYPE "public"."document_classification" AS ENUM('Unclassified', 'Restricted', 'Confidential', 'Secret');--> statement-breakpoint
CREATE TABLE "audit_chain_head" (
	"one" bigint PRIMARY KEY DEFAULT 1 NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"occurred_at" timestamp (3) with time zone NOT NULL,
	"actor_id" uuid,
	"actor_name" text,
	"actor_role" text,
	"client_address" text,
	"user_agent" text,
	"action" text NOT NULL,
	"object_type" text,
	"object_id" text,
	"object_label" text,
	"classification" text,
	"outcome" text NOT NULL,
	"details" text,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_events_outcome" CHECK ("audit_events"."outcome" in ('success', 'refused', 'failure'))
);
--> statement-breakpoint
ALTER TABLE "close_group_documents" ADD COLUMN "classification" "document_classification" DEFAULT 'Unclassified' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_id_idx" ON "audit_events" USING btree ("id");--> statement-breakpoint
CREATE INDEX "audit_events_time_idx" ON "audit_events" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_object_idx" ON "audit_events" USING btree ("object_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action","seq");--> statement-breakpoint
-- The audit trail's chain (issue 31, decision 067). The head holds the last link; its row lock makes links one at a
-- time across every node, held until the inserting transaction ends (a rolled-back event takes its link with it).
INSERT INTO "audit_chain_head" ("one", "seq", "hash") VALUES (1, 0, repeat('0', 64));--> statement-breakpoint
-- One field of the canonical form: `<octets>:<text>|`, or `-|` for null (decision 067; audit-chain.ts writes the same).
CREATE FUNCTION audit_field(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN v IS NULL THEN '-|' ELSE octet_length(v)::text || ':' || v || '|' END
$$;--> statement-breakpoint
CREATE FUNCTION audit_events_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head record;
BEGIN
  SELECT "seq", "hash" INTO head FROM "audit_chain_head" WHERE "one" = 1 FOR UPDATE;
  NEW."seq" := head."seq" + 1;
  NEW."prev_hash" := head."hash";
  NEW."occurred_at" := date_trunc('milliseconds', clock_timestamp());
  NEW."hash" := encode(sha256(convert_to(
    NEW."prev_hash" || '|'
      || audit_field(NEW."seq"::text)
      || audit_field(NEW."id"::text)
      || audit_field(to_char(NEW."occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      || audit_field(NEW."actor_id"::text)
      || audit_field(NEW."actor_name")
      || audit_field(NEW."actor_role")
      || audit_field(NEW."client_address")
      || audit_field(NEW."user_agent")
      || audit_field(NEW."action")
      || audit_field(NEW."object_type")
      || audit_field(NEW."object_id")
      || audit_field(NEW."object_label")
      || audit_field(NEW."classification")
      || audit_field(NEW."outcome")
      || audit_field(NEW."details"),
    'UTF8')), 'hex');
  UPDATE "audit_chain_head" SET "seq" = NEW."seq", "hash" = NEW."hash" WHERE "one" = 1;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_events_chain BEFORE INSERT ON "audit_events" FOR EACH ROW EXECUTE FUNCTION audit_events_chain();--> statement-breakpoint
-- Rows are never changed or removed, except the oldest by audit_purge (retention, AUDIT_RETENTION_DAYS).
CREATE FUNCTION audit_events_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('lab_portal.audit_purge', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events: % is refused; the audit trail is append-only', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_events_immutable BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION audit_events_immutable();--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_immutable();--> statement-breakpoint
CREATE TRIGGER audit_chain_head_immutable BEFORE DELETE ON "audit_chain_head"
  FOR EACH ROW EXECUTE FUNCTION audit_events_immutable();--> statement-breakpoint
CREATE TRIGGER audit_chain_head_no_truncate BEFORE TRUNCATE ON "audit_chain_head"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_immutable();--> statement-breakpoint
-- Retention: removes the events up to `through_seq` (the purge job writes a checkpoint naming that link first).
CREATE FUNCTION audit_purge(through_seq bigint) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  removed bigint;
BEGIN
  PERFORM set_config('lab_portal.audit_purge', 'on', true);
  DELETE FROM "audit_events" WHERE "seq" <= through_seq;
  GET DIAGNOSTICS removed = ROW_COUNT;
  PERFORM set_config('lab_portal.audit_purge', 'off', true);
  RETURN removed;
END
$$;
