-- When the bot last reminded a waiting player, and when it offered the
-- waiting opponents a forfeit: with last_action_at these are the timers,
-- kept here so that each fires once, across restarts.
ALTER TABLE tables ADD COLUMN reminded_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN forfeit_offered_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX tables_idle ON tables (status, last_action_at);
