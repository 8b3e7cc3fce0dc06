-- Live updates between workstations: every statement that changes a table announces which kind of data it
-- changed on the channel claimdesk_changes, delivered to listening workstations when its transaction commits
-- (PostgreSQL sends one notification per kind per transaction, however many rows changed). A payload is the
-- name of an org.claimdesk.domain.DataChange and the session setting claimdesk.session of the connection that
-- made the change (each open ClaimDesk database sets its own), so a workstation can tell its own changes from
-- the others'. No data travels, only that something changed. Repeatable: Flyway runs it again whenever this file
-- changes.
CREATE OR REPLACE FUNCTION claimdesk_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('claimdesk_changes',
        TG_ARGV[0] || ' ' || coalesce(current_setting('claimdesk.session', true), ''));
    RETURN NULL;
END;
$$;

CREATE OR REPLACE TRIGGER claim_changed AFTER INSERT OR UPDATE OR DELETE ON claim
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_changed('claims');
CREATE OR REPLACE TRIGGER claim_status_history_changed AFTER INSERT OR UPDATE OR DELETE ON claim_status_history
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_changed('claims');
CREATE OR REPLACE TRIGGER evidence_changed AFTER INSERT OR UPDATE OR DELETE ON evidence
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_changed('claims');
CREATE OR REPLACE TRIGGER outbox_event_changed AFTER INSERT OR UPDATE OR DELETE ON outbox_event
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_changed('outbox');
CREATE OR REPLACE TRIGGER delivery_attempt_changed AFTER INSERT OR UPDATE OR DELETE ON delivery_attempt
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_changed('outbox');
CREATE OR REPLACE TRIGGER audit_log_changed AFTER INSERT ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_changed('audit');
CREATE OR REPLACE TRIGGER worker_pause_changed AFTER INSERT OR UPDATE OR DELETE ON worker_pause
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_changed('worker');

-- The script's revision, read by ClaimDesk before it applies this script again: a build never replaces the
-- triggers of a newer revision with its own (PostgresDatabase.changeFeedRevision). Raise it with every change.
COMMENT ON FUNCTION claimdesk_changed() IS 'ClaimDesk change feed, revision 2';
