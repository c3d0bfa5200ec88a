-- A table where the bot is not (cribbage.Table.TokenOnly): a group DM,
-- or a server that did not install it, reached through a user's install
-- of the app, where only interactions' tokens reach.
ALTER TABLE tables ADD COLUMN token_only INTEGER NOT NULL DEFAULT 0;
