-- ClaimDesk schema version 11: each of the Audit page's filters reads through an index, newest entry first.
-- The subject's index is keyed by the subject id alone, so that a filter by id (the Audit page) finds its entries
-- as a filter by type and id (a claim's detail) does, the type then checked on those few entries; the action gets
-- an index of its own. Every SQLite index ends with the rowid, which audit_id is, so one key's entries are kept in
-- the log's order and the newest page is read without sorting every match (PostgreSQL's indexes name audit_id).
DROP INDEX audit_subject_idx;
CREATE INDEX audit_subject_idx ON audit_log (subject_id);
CREATE INDEX audit_action_idx  ON audit_log (action);
