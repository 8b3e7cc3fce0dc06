-- ClaimDesk schema: claim numbers for claims entered by hand or imported. The sequence only goes up, so a
-- number is never given twice, even after a claim is removed. It starts above every claim id: demo claims are
-- numbered by their ids.
CREATE TABLE claim_number_sequence (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    last INTEGER NOT NULL CHECK (last >= 0)
);
INSERT INTO claim_number_sequence (id, last) SELECT 1, coalesce(max(claim_id), 0) FROM claim;
