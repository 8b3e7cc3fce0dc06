-- ClaimDesk schema version 22: the Claims page's overdue filter. The claims awaiting the state's decision (submitted,
-- or asked for more information) are indexed by due date with their id and status, so that the filter's total, its
-- counts per status and its page by due date read this index alone. Before, each read every awaiting claim from the
-- table through the status index to test its due date: on a file of 1,000,000 claims (250,000 awaiting, 133,000
-- overdue) 0.14-0.33 s for the counts and as long for the total, 0.14 s for a page by due date, against 5-33 ms.
-- The statements name the claims awaiting a decision word for word as below (ClaimStore), which SQLite needs to use a
-- partial index. Writers of claims wait while it is built (at 1,000,000 claims 0.3 s with the file in the system's
-- cache, 1.3 s without).
CREATE INDEX claim_overdue_idx ON claim (decision_due_on, claim_id, status)
    WHERE status IN ('SUBMITTED_TO_STATE', 'NEEDS_INFO');
