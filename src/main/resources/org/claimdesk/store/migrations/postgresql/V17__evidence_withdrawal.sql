-- ClaimDesk schema version 17: an evidence reference added by mistake (the wrong claim, the wrong document) is
-- withdrawn, not deleted. The row stays with who withdrew it, when and why; its file stays in the evidence folder. A
-- withdrawn reference is not sent to the state and does not count for the evidence checklist. The three columns are
-- set together, once.
ALTER TABLE evidence
    ADD COLUMN withdrawn_by     TEXT COLLATE "C",
    ADD COLUMN withdrawn_at     BIGINT,
    ADD COLUMN withdrawn_reason TEXT COLLATE "C",
    ADD CONSTRAINT evidence_withdrawal_whole CHECK ((withdrawn_by IS NULL) = (withdrawn_at IS NULL)
        AND (withdrawn_by IS NULL) = (withdrawn_reason IS NULL));
