-- A digest of what each hand view was last made to show (by the answer
-- that recorded it, or a live edit through its token), so a process that
-- starts (or another replica) does not repeat an edit that would change
-- nothing (bot/live). hand_views.version is, from now on, the table
-- version the view was last made to show, kept with it.
ALTER TABLE hand_views ADD COLUMN shown TEXT NOT NULL DEFAULT '';
