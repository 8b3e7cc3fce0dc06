-- ClaimDesk schema on PostgreSQL, version 19: reads narrowed to a jurisdiction. The outbox's index by claim holds each
-- row's delivery state as well, as on SQLite, so that the Outbox page's total of a jurisdiction's rows in a state joins
-- the claims' jurisdiction index and this one, neither table read (on a 1,000,000-claim demo moved in, 564,000 outbox
-- rows: the sent rows of one jurisdiction counted in 48-70 ms against 331-411 ms through a read of the whole outbox
-- table). A claim's rows are still found by this index alone. Writers of the outbox wait while the index is built (a
-- few seconds at 1,000,000 rows).
DROP INDEX outbox_aggregate_idx;
CREATE INDEX outbox_aggregate_idx ON outbox_event (aggregate_id, delivery_state);
-- The claims' jurisdiction index holds each claim's status as well, after its id: the Claims page's counts per status
-- under a jurisdiction read that index alone, not every claim of the jurisdiction from the table (the largest, 300,000
-- of 1,000,000 claims: 0.27 s on SQLite and 0.29-0.81 s on PostgreSQL, against 0.11 s and 0.04-0.06 s), and a page of
-- a jurisdiction's claims is still read from it in id order. Writers of claims wait while it is built (about a second
-- at 1,000,000 claims).
DROP INDEX claim_jurisdiction_idx;
CREATE INDEX claim_jurisdiction_idx ON claim (jurisdiction, claim_id, status);
-- The failed rows' claims, in an index of their own: the Outbox page's failed rows of a jurisdiction (its default state
-- with a jurisdiction chosen) are read from the failed rows, each claim looked up in the jurisdiction's index, instead
-- of every claim of the jurisdiction (on a 1,000,000-claim demo, the failed rows of its largest jurisdiction: 0.03 s
-- against 0.08-0.13 s on SQLite). A row is in it only while it is failed.
CREATE INDEX outbox_failed_claim_idx ON outbox_event (aggregate_id) WHERE delivery_state = 'failed';
