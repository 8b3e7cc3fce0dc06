-- ClaimDesk schema on PostgreSQL, version 12: the outbox's rows per delivery state, kept as rows change. Every
-- workstation counts the outbox every few seconds (the status bar, the Outbox page's state counts, the worker's
-- pending, failed and sent rows); a count of every row reads each row's index entry and checks its visibility, about
-- 0.2-0.6 s of a server processor at 1,000,000 rows each time. Here each statement that inserts, updates or deletes
-- outbox rows adds one row per delivery state whose count it changed, with that change (n); a state's count is the sum
-- of its rows. Writers only add rows, so workstations delivering at once never wait for one another here, and
-- claimdesk_outbox_counts() folds the rows into one per state once they have grown. The functions run as the schema's
-- owner (SECURITY DEFINER), so the staff role needs no grant on the table. A fold, a rebuild and a truncation's reset
-- take one advisory lock, so none of them deletes rows while another has replaced them uncommitted.
CREATE TABLE outbox_state_tally (
    delivery_state TEXT   COLLATE "C" NOT NULL,
    n              BIGINT NOT NULL
);

-- Statement-level: one pass over the statement's changed rows (its transition tables), whatever their number.
CREATE FUNCTION claimdesk_outbox_tally() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO outbox_state_tally (delivery_state, n)
            SELECT delivery_state, count(*) FROM new_rows GROUP BY delivery_state;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO outbox_state_tally (delivery_state, n)
            SELECT delivery_state, -count(*) FROM old_rows GROUP BY delivery_state;
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO outbox_state_tally (delivery_state, n)
            SELECT delivery_state, sum(change) FROM (
                SELECT delivery_state, 1 AS change FROM new_rows
                UNION ALL
                SELECT delivery_state, -1 AS change FROM old_rows) changes
            GROUP BY delivery_state HAVING sum(change) <> 0;
    ELSE
        -- after any fold under way has committed: this DELETE then sees the rows it wrote
        PERFORM pg_advisory_xact_lock(hashtext('claimdesk_outbox_state_tally'));
        DELETE FROM outbox_state_tally;
    END IF;
    RETURN NULL;
END;
$$;

-- The counts per delivery state (states without rows left out). When the tally has grown past a hundred rows, and
-- this transaction may write and no other caller is folding it at that moment, its rows are first folded into one per
-- state: the rows a fold sees are replaced by their sums in one statement, so a count never changes by it, and rows
-- other transactions add meanwhile are summed by the next fold.
CREATE FUNCTION claimdesk_outbox_counts() RETURNS TABLE (delivery_state TEXT, n BIGINT)
    LANGUAGE plpgsql SECURITY DEFINER AS $$
#variable_conflict use_column
BEGIN
    IF (SELECT count(*) FROM outbox_state_tally) > 100
            AND NOT current_setting('transaction_read_only')::boolean
            AND pg_try_advisory_xact_lock(hashtext('claimdesk_outbox_state_tally')) THEN
        WITH folded AS (DELETE FROM outbox_state_tally RETURNING delivery_state, n)
        INSERT INTO outbox_state_tally (delivery_state, n)
            SELECT delivery_state, sum(n) FROM folded GROUP BY delivery_state HAVING sum(n) <> 0;
    END IF;
    RETURN QUERY SELECT t.delivery_state, sum(t.n)::BIGINT FROM outbox_state_tally t
        GROUP BY t.delivery_state HAVING sum(t.n) <> 0;
END;
$$;

-- Counts the outbox's rows again, for the owner role, should the tally ever disagree with them (doctor's "tally"
-- check says so): writers of the outbox wait until the transaction that calls it ends.
CREATE FUNCTION claimdesk_outbox_tally_rebuild() RETURNS void
    LANGUAGE plpgsql AS $$
BEGIN
    LOCK TABLE outbox_event IN SHARE ROW EXCLUSIVE MODE;
    PERFORM pg_advisory_xact_lock(hashtext('claimdesk_outbox_state_tally'));
    DELETE FROM outbox_state_tally;
    INSERT INTO outbox_state_tally (delivery_state, n)
        SELECT delivery_state, count(*) FROM outbox_event GROUP BY delivery_state;
END;
$$;
REVOKE EXECUTE ON FUNCTION claimdesk_outbox_tally_rebuild() FROM PUBLIC;

-- Each function finds the tally in this schema alone: a session's temporary table of the same name (searched first
-- unless named) cannot stand in for it.
DO $$
DECLARE
    f TEXT;
BEGIN
    FOREACH f IN ARRAY ARRAY['claimdesk_outbox_tally()', 'claimdesk_outbox_counts()', 'claimdesk_outbox_tally_rebuild()']
    LOOP
        EXECUTE format('ALTER FUNCTION %s SET search_path = %I, pg_temp', f, current_schema());
    END LOOP;
END;
$$;

-- No outbox row is written between the first count and the triggers (this migration's transaction holds the lock).
LOCK TABLE outbox_event IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO outbox_state_tally (delivery_state, n)
    SELECT delivery_state, count(*) FROM outbox_event GROUP BY delivery_state;

CREATE TRIGGER outbox_tally_insert AFTER INSERT ON outbox_event REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_outbox_tally();
CREATE TRIGGER outbox_tally_update AFTER UPDATE ON outbox_event REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_outbox_tally();
CREATE TRIGGER outbox_tally_delete AFTER DELETE ON outbox_event REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_outbox_tally();
CREATE TRIGGER outbox_tally_truncate AFTER TRUNCATE ON outbox_event
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_outbox_tally();
