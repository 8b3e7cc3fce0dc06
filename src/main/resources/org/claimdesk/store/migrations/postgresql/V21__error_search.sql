-- ClaimDesk schema on PostgreSQL, version 21: the Outbox page's search of error texts (ILIKE '%text%'). Only rows whose
-- last attempt failed carry an error text, a few percent of a large outbox, and these two indexes hold those rows
-- alone. The trigrams of their texts (pg_trgm, as the claims' search) find the rows a text of three characters or more
-- may match without reading a row: a text found nowhere among 1,000,000 rows (24,199 with a text) in 0.3 ms. Their
-- ids, each with its delivery state, give a search's rows in id order with the state tested in the index, so that a
-- page stops at its last row and a search among the sent rows reads none of the others from the table: the sent rows'
-- first page for a text the failed rows hold, 1.6 ms against 355 ms when every row with a text was read to test its
-- state (their pages not in the server's buffers). Without them a search read every row of the outbox: 269 ms for a
-- text found nowhere (EXPLAIN ANALYZE, no parallel query, as ClaimDesk's sessions run). A B-tree cannot hold the
-- texts themselves: its entry has a limit of about 2,700 bytes, and an error text is kept up to 4,096 characters
-- (schema version 14 says so). PostgreSQL sees for itself that a search names only rows with a text.
-- The extension as version 8 creates it: a database whose pg_trgm was dropped since (doctor warns of it) gets it back.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX outbox_error_idx ON outbox_event (outbox_event_id, delivery_state) WHERE last_error IS NOT NULL;
CREATE INDEX outbox_error_trgm ON outbox_event USING gin (last_error gin_trgm_ops) WHERE last_error IS NOT NULL;
