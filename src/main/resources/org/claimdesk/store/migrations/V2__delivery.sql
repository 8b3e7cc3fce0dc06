-- ClaimDesk schema, version 2: delivery worker bookkeeping.

-- Attempts that count toward the backoff and the attempt limit since the row was queued or last
-- re-queued. `attempts` keeps numbering every attempt (history goes on); a re-queue resets this one.
-- Attempts cut short by a systemic stop (401/403, state unreachable) count in neither limit.
ALTER TABLE outbox_event ADD COLUMN retry_count INTEGER NOT NULL DEFAULT 0;

-- Lets a worker find and release its own leases quickly.
CREATE INDEX outbox_lease_idx ON outbox_event (lease_owner) WHERE lease_owner IS NOT NULL;
