-- The key of the board picture on the table message (empty: none yet), so
-- the table message is sent a new picture only when the board would look
-- different; and whether the table draws cards in four colours.
ALTER TABLE tables ADD COLUMN board TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN four_colour INTEGER NOT NULL DEFAULT 0;
