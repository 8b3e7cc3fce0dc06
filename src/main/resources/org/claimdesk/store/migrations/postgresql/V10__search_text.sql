-- ClaimDesk schema on PostgreSQL, version 10: a text search reads one trigram index instead of four.
-- search_text holds the four searched fields (claim number, claimant, state property id, state case id) lower-cased,
-- apart by a control character no field may hold, so a text is found within one field only. lower() is what ILIKE
-- applies to both sides, so "search_text LIKE lower(pattern)" finds what the four ILIKEs found; the C collation
-- makes that LIKE compare bytes. The column is kept by PostgreSQL itself: no statement writes it.
ALTER TABLE claim ADD COLUMN search_text text COLLATE "C" GENERATED ALWAYS AS (lower(
    claim_number || E'\x1f' || claimant_name || E'\x1f' || state_property_id || E'\x1f' || coalesce(state_case_id, '')
)) STORED;
CREATE INDEX claim_search_trgm ON claim USING gin (search_text gin_trgm_ops);
COMMENT ON INDEX claim_search_trgm IS 'search: claim number, claimant, property id and case id, found by substring ignoring case';
DROP INDEX claim_number_trgm;
DROP INDEX claim_claimant_trgm;
DROP INDEX claim_property_trgm;
DROP INDEX claim_case_trgm;
