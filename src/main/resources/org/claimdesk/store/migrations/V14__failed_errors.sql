-- ClaimDesk schema version 14: the Outbox page's error groups (the failed rows grouped by their error text, read
-- again each time the page is shown) come from an index of the failed rows alone, in the order of their texts, which
-- holds every column the grouping reads. Through the delivery state's index the grouping read each failed row from
-- the table and sorted them by text (100-130 ms at 1,000,000 rows with 22,000 failed); through this one it reads the
-- index's entries in order (6-15 ms). The index starts with the delivery state, which the grouping's condition names,
-- so that SQLite's planner prefers it without statistics; a row enters it only while it is failed.
CREATE INDEX outbox_failed_error_idx ON outbox_event (delivery_state, last_error, updated_at)
    WHERE delivery_state = 'failed';
