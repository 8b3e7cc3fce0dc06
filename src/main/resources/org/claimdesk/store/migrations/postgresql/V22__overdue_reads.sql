-- ClaimDesk schema on PostgreSQL, version 22: the Claims page's overdue filter. The claims awaiting the state's
-- decision (submitted, or asked for more information) are indexed by due date with their id and status, as on SQLite,
-- in the Claims page's order by due date (claims without one first, as version 18's index of every claim), so that the
-- filter's counts per status, its total and its page by due date read this index alone (an index-only scan, once
-- autovacuum has marked the table's pages visible). Before, the counts and the total read every awaiting claim from
-- the table: on a team database of 1,000,000 claims (250,000 awaiting, 133,000 overdue) the counts took 0.10-0.20 s
-- with the table in the server's buffers and 0.87 s without, against 31 ms; the page by due date read each claim of
-- the due date's index, decided or not, from the table to test its status (7-30 ms; now 8-20 ms). Writers of claims
-- wait while it is built (0.4 s at 1,000,000 claims).
CREATE INDEX claim_overdue_idx ON claim (decision_due_on NULLS FIRST, claim_id, status)
    WHERE status IN ('SUBMITTED_TO_STATE', 'NEEDS_INFO');
