-- A digest of what the table message was last edited or posted to show,
-- so a process that starts (or another replica) does not repeat an edit
-- that would change nothing (bot/live).
ALTER TABLE tables ADD COLUMN shown TEXT NOT NULL DEFAULT '';
