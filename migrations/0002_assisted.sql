-- A game in which a player asked the coach for a hint is marked assisted,
-- and so is its result.
ALTER TABLE tables ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0;
