-- ClaimDesk schema, version 3: text search that does not read every claim.

-- Claim number, claimant and state property id, indexed by trigrams: a search of three or more
-- characters finds its claims in the index instead of testing every row. The index reads its text from
-- `claim` (external content); the triggers keep it in step. A delivery writes status and case id only,
-- so it does not touch this index.
CREATE VIRTUAL TABLE claim_search USING fts5(
    claim_number, claimant_name, state_property_id,
    content = 'claim', content_rowid = 'claim_id', tokenize = 'trigram');
INSERT INTO claim_search (claim_search) VALUES ('rebuild');

CREATE TRIGGER claim_search_insert AFTER INSERT ON claim
BEGIN
    INSERT INTO claim_search (rowid, claim_number, claimant_name, state_property_id)
    VALUES (new.claim_id, new.claim_number, new.claimant_name, new.state_property_id);
END;
CREATE TRIGGER claim_search_update AFTER UPDATE OF claim_number, claimant_name, state_property_id ON claim
BEGIN
    INSERT INTO claim_search (claim_search, rowid, claim_number, claimant_name, state_property_id)
    VALUES ('delete', old.claim_id, old.claim_number, old.claimant_name, old.state_property_id);
    INSERT INTO claim_search (rowid, claim_number, claimant_name, state_property_id)
    VALUES (new.claim_id, new.claim_number, new.claimant_name, new.state_property_id);
END;
CREATE TRIGGER claim_search_delete AFTER DELETE ON claim
BEGIN
    INSERT INTO claim_search (claim_search, rowid, claim_number, claimant_name, state_property_id)
    VALUES ('delete', old.claim_id, old.claim_number, old.claimant_name, old.state_property_id);
END;

-- The state's case id is set with the status, so carrying it in the status index costs a delivery
-- nothing more, and a search scans this narrow index for case ids instead of the claims.
DROP INDEX claim_status_idx;
CREATE INDEX claim_status_idx ON claim (status, claim_id, state_case_id);
