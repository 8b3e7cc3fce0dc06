-- ClaimDesk schema on PostgreSQL, version 15: the workers' lease reads the due pending rows in its own order, the due
-- time and then the id, straight from one index. The delivery state's index ends with the row's id, as every SQLite
-- index ends with the rowid, which outbox_event_id is. Before, the index stopped at the due time and the rows due at
-- one instant (thousands after a re-queue or an import) were sorted by id at every lease: at 1,000,000 outbox rows
-- with 20,000 rows due at one instant PostgreSQL chose that index over the pending rows' own and each lease took
-- 20 ms of the server instead of 0.2 ms. The pending rows' index is then one index too many to keep up at every
-- write. Writers of the outbox wait while the index is built (about a second at 1,000,000 rows).
DROP INDEX outbox_due_pending_idx;
DROP INDEX outbox_due_idx;
CREATE INDEX outbox_due_idx ON outbox_event (delivery_state, next_attempt_at, outbox_event_id);
