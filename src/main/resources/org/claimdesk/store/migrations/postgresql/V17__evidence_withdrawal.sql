-- ClaimDesk schema version 17: an evidence reference added by mistake (the wrong claim, the wrong document) is
-- withdrawn, not deleted. The row stays with who withdrew it, when and why; its file stays in the evidence folder. A
-- withdrawn reference is not sent to the state and does not count for the evidence checklist. The three columns are
-- set together, once.
ALTER TABLE evidence
    ADD COLUMN withdrawn_by     TEXT COLLATE "C",
    ADD COLUMN withdrawn_at     BIGINT,
    ADD COLUMN withdrawn_reason TEXT COLLATE "C",
    ADD CONSTRAINT evidence_withdrawal_whole CHECK ((withdrawn_by IS NULL) = (withdrawn_at IS NULL)
        AND (withdrawn_by IS NULL) = (withdrawn_reason IS NULL)) NOT VALID;
-- the rows there are checked without holding the table against reads and writes meanwhile
ALTER TABLE evidence VALIDATE CONSTRAINT evidence_withdrawal_whole;

-- A reference is added, then at most withdrawn once; nothing else of it ever changes, whoever asks.
CREATE FUNCTION evidence_withdrawn_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.withdrawn_at IS NOT NULL OR NEW.withdrawn_at IS NULL
        OR (NEW.evidence_id, NEW.claim_id, NEW.kind, NEW.title, NEW.url, NEW.file_name, NEW.stored_name,
            NEW.size_bytes, NEW.sha256, NEW.added_by, NEW.added_at)
           IS DISTINCT FROM (OLD.evidence_id, OLD.claim_id, OLD.kind, OLD.title, OLD.url, OLD.file_name,
            OLD.stored_name, OLD.size_bytes, OLD.sha256, OLD.added_by, OLD.added_at) THEN
        RAISE EXCEPTION 'an evidence reference is never changed, only withdrawn once';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER evidence_withdrawn_once BEFORE UPDATE ON evidence
    FOR EACH ROW EXECUTE FUNCTION evidence_withdrawn_once();
