-- The audit trail belongs to its owner, not to the portal's own role (decision 093). The portal's pool logs in as a
-- role that owns the application tables but not these: it may INSERT and SELECT audit events, and let the oldest go
-- only through audit_purge, which runs as the trail's owner and keeps the last `audit_purge_floor.days` days (180 by
-- default: CERT-In) whatever it is asked.
CREATE TABLE "audit_purge_floor" (
	"one" bigint PRIMARY KEY DEFAULT 1 NOT NULL CHECK ("one" = 1),
	"days" integer NOT NULL CHECK ("days" >= 0)
);--> statement-breakpoint
INSERT INTO "audit_purge_floor" ("one", "days") VALUES (1, 180);--> statement-breakpoint
-- The chain moves its head as the trail's owner: the portal's role may read the head, never write it.
ALTER FUNCTION audit_events_chain() SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp;--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_events_chain() FROM PUBLIC;--> statement-breakpoint
-- The purge flag counts only for the trail's owner (inside audit_purge): set by any other session it changes nothing.
CREATE OR REPLACE FUNCTION audit_events_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('lab_portal.audit_purge', true) = 'on'
    AND current_user = (SELECT r.rolname FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner WHERE c.oid = TG_RELID)
  THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events: % is refused; the audit trail is append-only', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_purge(through_seq bigint) RETURNS bigint LANGUAGE plpgsql
  SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  removed bigint;
  keep integer;
  newest timestamptz;
BEGIN
  SELECT "days" INTO keep FROM "audit_purge_floor" WHERE "one" = 1;
  keep := coalesce(keep, 180);
  -- Links are made one at a time in time order: the last row removed is the newest.
  SELECT "occurred_at" INTO newest FROM "audit_events" WHERE "seq" = through_seq;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  IF newest > clock_timestamp() - make_interval(days => keep) THEN
    RAISE EXCEPTION 'audit_purge: seq % is from %; events of the last % days are kept', through_seq, newest, keep
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  PERFORM set_config('lab_portal.audit_purge', 'on', true);
  DELETE FROM "audit_events" WHERE "seq" <= through_seq;
  GET DIAGNOSTICS removed = ROW_COUNT;
  PERFORM set_config('lab_portal.audit_purge', 'off', true);
  RETURN removed;
END
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_purge(bigint) FROM PUBLIC;
