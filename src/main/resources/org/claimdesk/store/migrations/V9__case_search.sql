-- ClaimDesk schema, version 9: the state's case id found through a trigram index, as the other searched
-- columns are since version 3.

-- An index of its own rather than a fourth column of `claim_search`: a delivery sets the case id, and
-- re-indexing one short column costs it far less than re-indexing the claim number, claimant and property
-- id with it. A claim without a case id is indexed with no text, so that the index holds every claim, as
-- its 'rebuild' does. The triggers keep it in step; an update that leaves the case id as it was skips it.
CREATE VIRTUAL TABLE claim_case_search USING fts5(
    state_case_id,
    content = 'claim', content_rowid = 'claim_id', tokenize = 'trigram');
INSERT INTO claim_case_search (claim_case_search) VALUES ('rebuild');

CREATE TRIGGER claim_case_search_insert AFTER INSERT ON claim
BEGIN
    INSERT INTO claim_case_search (rowid, state_case_id) VALUES (new.claim_id, new.state_case_id);
END;
CREATE TRIGGER claim_case_search_update AFTER UPDATE OF state_case_id ON claim
    WHEN old.state_case_id IS NOT new.state_case_id
BEGIN
    INSERT INTO claim_case_search (claim_case_search, rowid, state_case_id)
    VALUES ('delete', old.claim_id, old.state_case_id);
    INSERT INTO claim_case_search (rowid, state_case_id) VALUES (new.claim_id, new.state_case_id);
END;
CREATE TRIGGER claim_case_search_delete AFTER DELETE ON claim
BEGIN
    INSERT INTO claim_case_search (claim_case_search, rowid, state_case_id)
    VALUES ('delete', old.claim_id, old.state_case_id);
END;

-- The status index no longer needs to carry the case id for the search's scan; it keeps it, so that an
-- upgrade does not rebuild it.
