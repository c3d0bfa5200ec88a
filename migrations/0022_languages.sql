-- The languages the bot speaks (issue 35). A server's admins may choose
-- the language of what its channels see ('' for none: the server's own
-- locale, else English). A table keeps the Discord locale of the place it
-- was opened (the server's guild_locale, or in a DM its starter's), so
-- what is shown of it later, with no interaction to ask, speaks the same.
-- A hand view keeps its player's language, for the edits that follow the
-- table.
ALTER TABLE guild_settings ADD COLUMN language TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN locale TEXT NOT NULL DEFAULT '';
ALTER TABLE hand_views ADD COLUMN lang TEXT NOT NULL DEFAULT '';
