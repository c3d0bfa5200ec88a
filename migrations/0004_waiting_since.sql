-- When the players the game waits on began waiting: a move by one player
-- does not restart the wait of another who is still to act (both throw to
-- the crib from the deal on). Reminders and forfeits count from here.
ALTER TABLE tables ADD COLUMN waiting_since BIGINT NOT NULL DEFAULT 0;
