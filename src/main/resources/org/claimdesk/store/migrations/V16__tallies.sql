-- ClaimDesk schema version 16: the outbox's rows per delivery state and the claims per status, kept as rows change,
-- as a team database has kept them since versions 12 and 13. A console counts the outbox at every live refresh (the
-- status bar, the Outbox page's state filter) and its claims per status at every full refresh of the Claims page;
-- counted row by row, each read every entry of an index in the console's process (about 40-60 ms of a processor
-- at 1,000,000 rows), beside the pages being drawn. Here a file has one writer at a time, so each tally keeps one row
-- per value, changed in the writing transaction by the triggers below; a count reads those few rows.
CREATE TABLE outbox_state_tally (
    delivery_state TEXT    NOT NULL PRIMARY KEY,
    n              INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE claim_status_tally (
    status TEXT    NOT NULL PRIMARY KEY,
    n      INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO outbox_state_tally (delivery_state, n)
    SELECT delivery_state, count(*) FROM outbox_event GROUP BY delivery_state;

INSERT INTO claim_status_tally (status, n)
    SELECT status, count(*) FROM claim GROUP BY status;

CREATE TRIGGER outbox_tally_insert AFTER INSERT ON outbox_event BEGIN
    INSERT INTO outbox_state_tally (delivery_state, n) VALUES (NEW.delivery_state, 1)
        ON CONFLICT (delivery_state) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER outbox_tally_update AFTER UPDATE OF delivery_state ON outbox_event
    WHEN OLD.delivery_state IS NOT NEW.delivery_state BEGIN
    UPDATE outbox_state_tally SET n = n - 1 WHERE delivery_state = OLD.delivery_state;
    INSERT INTO outbox_state_tally (delivery_state, n) VALUES (NEW.delivery_state, 1)
        ON CONFLICT (delivery_state) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER outbox_tally_delete AFTER DELETE ON outbox_event BEGIN
    UPDATE outbox_state_tally SET n = n - 1 WHERE delivery_state = OLD.delivery_state;
END;

CREATE TRIGGER claim_tally_insert AFTER INSERT ON claim BEGIN
    INSERT INTO claim_status_tally (status, n) VALUES (NEW.status, 1)
        ON CONFLICT (status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER claim_tally_update AFTER UPDATE OF status ON claim
    WHEN OLD.status IS NOT NEW.status BEGIN
    UPDATE claim_status_tally SET n = n - 1 WHERE status = OLD.status;
    INSERT INTO claim_status_tally (status, n) VALUES (NEW.status, 1)
        ON CONFLICT (status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER claim_tally_delete AFTER DELETE ON claim BEGIN
    UPDATE claim_status_tally SET n = n - 1 WHERE status = OLD.status;
END;
