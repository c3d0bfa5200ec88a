-- Tournaments: one row each, its sign-up, pairings and playoff kept as the
-- domain's JSON (state), with the columns the bot looks tournaments up by.
-- version counts its changes (a change made from an older one is refused);
-- shown_version is the newest version its standings message shows, so a
-- change whose edit a restart cut off is shown after it.
CREATE TABLE tournaments (
    id            BIGINT  PRIMARY KEY,
    guild_id      TEXT    NOT NULL,
    channel_id    TEXT    NOT NULL,
    message_id    TEXT    NOT NULL DEFAULT '',
    status        TEXT    NOT NULL,
    version       BIGINT  NOT NULL,
    shown_version BIGINT  NOT NULL DEFAULT 0,
    state         TEXT    NOT NULL,
    created_at    BIGINT  NOT NULL,
    finished_at   BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX tournaments_channel ON tournaments (channel_id, status);

-- A tournament's game: its table carries the tournament and where in it
-- the game falls (round, pairing, game: the domain's TournamentLink as
-- JSON). The unique index is the last word against a game opened twice.
ALTER TABLE tables ADD COLUMN tournament_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN tournament TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX tables_tournament ON tables (tournament_id, tournament) WHERE tournament_id <> 0;
