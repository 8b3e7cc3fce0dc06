-- ClaimDesk schema version 21: the Outbox page's search of error texts. Only rows whose last attempt failed carry an
-- error text (failed, and pending rows waiting to be retried; a row marked sent keeps none unless reconciled), a few
-- percent of a large outbox. This index holds those rows alone, with what a search narrowed by state, age or
-- jurisdiction tests of the row (its delivery state, its last change and its claim), so that a search reads its ids
-- from the index, the outbox's table read for its page's rows only (a jurisdiction's claims are looked up by their
-- keys). On a 1,000,000-claim demo file (564,000 outbox rows, 41,000 with a text), a text found nowhere took 0.12 s
-- for the page and as long for its total by reading every row, 1.0 s for the total among the sent rows through the
-- delivery state's index, against 5-20 ms through this one; a text many failed and pending rows hold, among the sent
-- rows, 51 ms (0.9 s from a cold cache) when each of them was read from the table to test its state, against 6 ms.
CREATE INDEX outbox_error_idx ON outbox_event (last_error, delivery_state, aggregate_id, updated_at)
    WHERE last_error IS NOT NULL;
