-- ClaimDesk schema on PostgreSQL, version 18: the Claims page sorted by decision due date reads its page from the due
-- date's index. The page sorts claims without a due date first (ascending; last descending), as SQLite puts nulls,
-- then by id; an index in PostgreSQL's default order puts them last, so every such page read and sorted every claim
-- (23 ms at 20,000 claims, growing with their number). Read forwards this index gives the ascending order, backwards
-- the descending one. Writers of claims wait while the index is built.
DROP INDEX claim_due_idx;
CREATE INDEX claim_due_idx ON claim (decision_due_on NULLS FIRST, claim_id);
