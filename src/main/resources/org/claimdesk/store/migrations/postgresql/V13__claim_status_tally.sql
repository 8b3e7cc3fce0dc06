-- ClaimDesk schema on PostgreSQL, version 13: the claims per status, kept as claims change, as version 12 keeps the
-- outbox's rows per delivery state (see there). The Claims page counts its claims per status for its status chips
-- whenever claims change on any workstation; without a filter that count read every claim's index entry, about
-- 0.3-0.4 s of a server processor at 1,000,000 claims each time. Each statement that inserts, updates or deletes
-- claims adds one row per status whose count it changed; claimdesk_claim_counts() sums them and folds them into one
-- per status once they have grown. A count with a filter (a jurisdiction, a search, overdue claims) still reads the
-- claims it matches.
CREATE TABLE claim_status_tally (
    status TEXT   COLLATE "C" NOT NULL,
    n      BIGINT NOT NULL
);

-- Statement-level: one pass over the statement's changed rows (its transition tables), whatever their number. An
-- update that changes no claim's status adds nothing.
CREATE FUNCTION claimdesk_claim_tally() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO claim_status_tally (status, n)
            SELECT status, count(*) FROM new_rows GROUP BY status;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO claim_status_tally (status, n)
            SELECT status, -count(*) FROM old_rows GROUP BY status;
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO claim_status_tally (status, n)
            SELECT status, sum(change) FROM (
                SELECT status, 1 AS change FROM new_rows
                UNION ALL
                SELECT status, -1 AS change FROM old_rows) changes
            GROUP BY status HAVING sum(change) <> 0;
    ELSE
        -- after any fold under way has committed: this DELETE then sees the rows it wrote
        PERFORM pg_advisory_xact_lock(hashtext('claimdesk_claim_status_tally'));
        DELETE FROM claim_status_tally;
    END IF;
    RETURN NULL;
END;
$$;

-- The claims per status (statuses without claims left out), folded first as claimdesk_outbox_counts() folds.
CREATE FUNCTION claimdesk_claim_counts() RETURNS TABLE (status TEXT, n BIGINT)
    LANGUAGE plpgsql SECURITY DEFINER AS $$
#variable_conflict use_column
BEGIN
    IF (SELECT count(*) FROM claim_status_tally) > 100
            AND NOT current_setting('transaction_read_only')::boolean
            AND pg_try_advisory_xact_lock(hashtext('claimdesk_claim_status_tally')) THEN
        WITH folded AS (DELETE FROM claim_status_tally RETURNING status, n)
        INSERT INTO claim_status_tally (status, n)
            SELECT status, sum(n) FROM folded GROUP BY status HAVING sum(n) <> 0;
    END IF;
    RETURN QUERY SELECT t.status, sum(t.n)::BIGINT FROM claim_status_tally t
        GROUP BY t.status HAVING sum(t.n) <> 0;
END;
$$;

-- Counts the claims again, for the owner role, should the tally ever disagree with them (doctor's "tally" check).
CREATE FUNCTION claimdesk_claim_tally_rebuild() RETURNS void
    LANGUAGE plpgsql AS $$
BEGIN
    LOCK TABLE claim IN SHARE ROW EXCLUSIVE MODE;
    PERFORM pg_advisory_xact_lock(hashtext('claimdesk_claim_status_tally'));
    DELETE FROM claim_status_tally;
    INSERT INTO claim_status_tally (status, n)
        SELECT status, count(*) FROM claim GROUP BY status;
END;
$$;
REVOKE EXECUTE ON FUNCTION claimdesk_claim_tally_rebuild() FROM PUBLIC;

DO $$
DECLARE
    f TEXT;
BEGIN
    FOREACH f IN ARRAY ARRAY['claimdesk_claim_tally()', 'claimdesk_claim_counts()', 'claimdesk_claim_tally_rebuild()']
    LOOP
        EXECUTE format('ALTER FUNCTION %s SET search_path = %I, pg_temp', f, current_schema());
    END LOOP;
END;
$$;

LOCK TABLE claim IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO claim_status_tally (status, n)
    SELECT status, count(*) FROM claim GROUP BY status;

CREATE TRIGGER claim_tally_insert AFTER INSERT ON claim REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_claim_tally();
CREATE TRIGGER claim_tally_update AFTER UPDATE ON claim REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_claim_tally();
CREATE TRIGGER claim_tally_delete AFTER DELETE ON claim REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_claim_tally();
CREATE TRIGGER claim_tally_truncate AFTER TRUNCATE ON claim
    FOR EACH STATEMENT EXECUTE FUNCTION claimdesk_claim_tally();
