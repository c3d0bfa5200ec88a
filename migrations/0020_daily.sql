-- The daily hand (issue 34). daily_answers holds one answer a player a
-- day, wherever given: the primary key is what refuses a second one, in
-- the write itself. guild_id is the server answered in ('' in a DM);
-- gave_up is the points the throw gives up against the best, on average.
-- day counts days from 1970-01-01, UTC.
CREATE TABLE daily_answers (
    user_id     TEXT             NOT NULL,
    day         BIGINT           NOT NULL,
    guild_id    TEXT             NOT NULL,
    name        TEXT             NOT NULL,
    thrown      BIGINT           NOT NULL,
    gave_up     DOUBLE PRECISION NOT NULL,
    answered_at BIGINT           NOT NULL,
    PRIMARY KEY (user_id, day)
);
CREATE INDEX daily_answers_guild ON daily_answers (guild_id, day);

-- Where and when each server gets the daily hand: the channel ('' for
-- none) and the hour (UTC) from which the day's post goes out.
CREATE TABLE daily_settings (
    guild_id   TEXT    PRIMARY KEY,
    channel_id TEXT    NOT NULL DEFAULT '',
    hour       INTEGER NOT NULL DEFAULT 0,
    updated_by TEXT    NOT NULL DEFAULT '',
    updated_at BIGINT  NOT NULL DEFAULT 0
);

-- Each server's post of a day, claimed once: the row is written in the
-- transaction that queues the post, and the primary key refuses a second,
-- whichever replica (or the same one after a restart) tries. The post's
-- announcements are queued under table_id -id, so no table's story and
-- no other server's post waits behind them.
CREATE TABLE daily_posts (
    id         BIGINT NOT NULL UNIQUE,
    guild_id   TEXT   NOT NULL,
    day        BIGINT NOT NULL,
    channel_id TEXT   NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, day)
);
