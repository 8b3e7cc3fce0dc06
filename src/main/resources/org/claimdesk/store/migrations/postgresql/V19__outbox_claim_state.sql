-- ClaimDesk schema on PostgreSQL, version 19: the outbox's index by claim holds each row's delivery state as well, as
-- on SQLite, so that the Outbox page narrowed to a jurisdiction and a state finds the jurisdiction's rows in a state
-- from the claims' jurisdiction index and this one, without reading the outbox rows it does not show. The claim's rows
-- are still found by this index alone. Writers of the outbox wait while the index is built (a few seconds at
-- 1,000,000 rows).
DROP INDEX outbox_aggregate_idx;
CREATE INDEX outbox_aggregate_idx ON outbox_event (aggregate_id, delivery_state);
