-- ClaimDesk schema on PostgreSQL, version 9. On SQLite, version 9 gives the state's case id a trigram index of its
-- own; here the case id has had one since the first team schema (claim_case_trgm, V8), so nothing changes but the
-- version, which stays the same on both engines, and the index's description.
COMMENT ON INDEX claim_case_trgm IS 'search: the state''s case id, found by substring ignoring case (ILIKE)';
