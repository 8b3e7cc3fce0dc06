-- ClaimDesk schema version 17: an evidence reference added by mistake (the wrong claim, the wrong document) is
-- withdrawn, not deleted. The row stays with who withdrew it, when and why; its file stays in the evidence folder. A
-- withdrawn reference is not sent to the state and does not count for the evidence checklist. The three columns are
-- set together, once.
ALTER TABLE evidence ADD COLUMN withdrawn_by TEXT;
ALTER TABLE evidence ADD COLUMN withdrawn_at INTEGER;
ALTER TABLE evidence ADD COLUMN withdrawn_reason TEXT
    CHECK ((withdrawn_by IS NULL) = (withdrawn_at IS NULL) AND (withdrawn_by IS NULL) = (withdrawn_reason IS NULL));

-- A reference is added, then at most withdrawn once; nothing else of it ever changes, whoever asks.
CREATE TRIGGER evidence_withdrawn_once BEFORE UPDATE ON evidence
    WHEN OLD.withdrawn_at IS NOT NULL OR NEW.withdrawn_at IS NULL
      OR NEW.evidence_id IS NOT OLD.evidence_id OR NEW.claim_id IS NOT OLD.claim_id OR NEW.kind IS NOT OLD.kind
      OR NEW.title IS NOT OLD.title OR NEW.url IS NOT OLD.url OR NEW.file_name IS NOT OLD.file_name
      OR NEW.stored_name IS NOT OLD.stored_name OR NEW.size_bytes IS NOT OLD.size_bytes
      OR NEW.sha256 IS NOT OLD.sha256 OR NEW.added_by IS NOT OLD.added_by OR NEW.added_at IS NOT OLD.added_at
BEGIN
    SELECT RAISE(ABORT, 'an evidence reference is never changed, only withdrawn once');
END;
