-- Each seat's open hand view: the private message that shows a player
-- their cards, the newest interaction token that can edit it (a token
-- lives 15 minutes), and the table version it showed then. When the table
-- moves on, the bot edits the view through the token, so a player sees
-- the other players' moves without pressing Refresh; such edits do not
-- count against the bot token's global rate limit.
CREATE TABLE hand_views (
    table_id   BIGINT  NOT NULL,
    seat       INTEGER NOT NULL,
    token      TEXT    NOT NULL,
    message_id TEXT    NOT NULL DEFAULT '',
    at         BIGINT  NOT NULL,
    version    BIGINT  NOT NULL,
    PRIMARY KEY (table_id, seat)
);
