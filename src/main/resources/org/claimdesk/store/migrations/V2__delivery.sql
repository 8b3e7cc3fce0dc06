-- ClaimDesk schema, version 2: delivery worker bookkeeping.

-- Attempts that count toward the backoff and the attempt limit since the row was queued or last
-- re-queued. `attempts` keeps numbering every attempt (history goes on); a re-queue resets this one.
-- Attempts cut short by a systemic stop (401/403, state unreachable) count toward neither.
ALTER TABLE outbox_event ADD COLUMN retry_count INTEGER NOT NULL DEFAULT 0;
