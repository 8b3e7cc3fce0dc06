-- ClaimDesk schema on PostgreSQL, version 11: each of the Audit page's filters reads through an index, newest entry
-- first. The subject's index is keyed by the subject id alone, so that a filter by id (the Audit page) finds its
-- entries as a filter by type and id (a claim's detail) does, the type then checked on those few entries; the action
-- gets an index of its own. Each index ends with audit_id, which keeps one key's entries in the log's order, so the
-- newest page is read without sorting every match; the actor's index is built again for that reason (on SQLite
-- every index ends with the rowid, which audit_id is).
--
-- The new indexes are built first, under names of their own: building one holds back writes to the log, not reads.
-- Dropping the old ones locks the log against reads too, until this version commits, so that comes last.
CREATE INDEX audit_subject_v11_idx ON audit_log (subject_id, audit_id);
CREATE INDEX audit_actor_v11_idx   ON audit_log (actor, audit_id);
CREATE INDEX audit_action_idx      ON audit_log (action, audit_id);
DROP INDEX audit_subject_idx;
DROP INDEX audit_actor_idx;
ALTER INDEX audit_subject_v11_idx RENAME TO audit_subject_idx;
ALTER INDEX audit_actor_v11_idx RENAME TO audit_actor_idx;
