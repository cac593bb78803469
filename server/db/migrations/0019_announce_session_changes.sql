-- Signed-in requests are checked against a per-node cache of sessions (issue 12, decision 016): every change that can
-- refuse a token or change what its holder may do is announced on the change feed's channel, whoever makes it (a
-- service, another node, an operator in psql). The notice goes out at commit, never for a rollback; PostgreSQL folds
-- identical notices of one transaction into one.
CREATE OR REPLACE FUNCTION announce_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lab_portal_changes', 'sessions');
  RETURN NULL;
END $$;--> statement-breakpoint

-- A sign-out, a refresh or "sign out everywhere" (sessions_valid_after, below).
CREATE TRIGGER announce_session_change AFTER INSERT ON revoked_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION announce_session_change();--> statement-breakpoint

-- The columns a session check reads (server/plugins/auth.ts, sessionUser); a profile's other fields announce nothing.
CREATE TRIGGER announce_session_change AFTER UPDATE ON users FOR EACH ROW
  WHEN ((OLD.id, OLD.email, OLD.name, OLD.role, OLD.status, OLD.status_reason, OLD.lab_id, OLD.group_id,
    OLD.classified_clearance, OLD.sessions_valid_after)
    IS DISTINCT FROM (NEW.id, NEW.email, NEW.name, NEW.role, NEW.status, NEW.status_reason, NEW.lab_id, NEW.group_id,
    NEW.classified_clearance, NEW.sessions_valid_after))
  EXECUTE FUNCTION announce_session_change();--> statement-breakpoint

CREATE TRIGGER announce_session_change_delete AFTER DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION announce_session_change();
