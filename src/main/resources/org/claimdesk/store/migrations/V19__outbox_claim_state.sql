-- ClaimDesk schema version 19: the outbox's index by claim holds each row's delivery state as well, so that the Outbox
-- page narrowed to a jurisdiction (with or without a state) reads the jurisdiction's claims from their index and each
-- claim's rows from this one, without reading a row of either table. Before, a page of the sent rows of one
-- jurisdiction read every sent row from the outbox table to find its claim: 3.3 s for the page and 3.9 s for its
-- total at 1,000,000 outbox rows, against 0.05-0.08 s through this index for the largest jurisdiction. The claim's
-- rows are still found by this index alone. Built again over every outbox row (a few seconds at 1,000,000 rows).
DROP INDEX outbox_aggregate_idx;
CREATE INDEX outbox_aggregate_idx ON outbox_event (aggregate_id, delivery_state);
