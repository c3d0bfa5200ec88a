-- Each server's own settings, set by its admins with /cribbage-admin
-- settings. A duration of -1 (or a 0 in the other columns, '' in the
-- text ones) is unset: the bot's default applies. version counts the
-- changes; bumping it first locks the row, so two admins' changes at once
-- are applied one after the other.
CREATE TABLE guild_settings (
    guild_id        TEXT    PRIMARY KEY,
    reminder_after  BIGINT  NOT NULL DEFAULT -1,
    forfeit_after   BIGINT  NOT NULL DEFAULT -1,
    default_points  INTEGER NOT NULL DEFAULT 0,
    games_channel   TEXT    NOT NULL DEFAULT '',
    max_open_tables INTEGER NOT NULL DEFAULT 0,
    cancel_role     TEXT    NOT NULL DEFAULT '',
    version         BIGINT  NOT NULL DEFAULT 0,
    updated_by      TEXT    NOT NULL DEFAULT '',
    updated_at      BIGINT  NOT NULL DEFAULT 0
);

-- Who cancelled a table (status 'cancelled') and why: the table message
-- and the buttons say so. A cancelled table has no result.
ALTER TABLE tables ADD COLUMN cancelled_by TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN cancel_reason TEXT NOT NULL DEFAULT '';
