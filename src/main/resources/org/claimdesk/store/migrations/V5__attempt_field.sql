-- ClaimDesk schema, version 5: the field a state's refusal names.

-- The submission field the state named as at fault in its answer ("holderId", "evidence.address", ...),
-- as its error body's `field` says; NULL when the answer named none (acceptances, transient trouble,
-- attempts made before this column existed).
ALTER TABLE delivery_attempt ADD COLUMN field TEXT;
