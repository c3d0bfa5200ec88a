-- A sealed announcement is sent exactly as it was first sent. The sender
-- merges a table's pending story lines into one post, and before the first
-- attempt records the last line it took in (sealed_through); every attempt
-- after that, in this run or after a restart, sends the same lines under
-- the same nonce, so Discord's enforced nonce keeps the post from appearing
-- twice. The lines merged stay in their own rows, delivered with the first.
ALTER TABLE outbox ADD COLUMN sealed_through BIGINT NOT NULL DEFAULT 0;
