-- The newest interaction token that can edit the table message, which
-- message that is, and when the interaction came (a token lives 15
-- minutes). Edits through it do not count against the bot token's global
-- rate limit, so while one is alive the table message costs none of it.
ALTER TABLE tables ADD COLUMN edit_token TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN edit_token_message TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN edit_token_at BIGINT NOT NULL DEFAULT 0;
