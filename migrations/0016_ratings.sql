-- Skill ratings (Glicko-2, package rating) in seasons. A server's season 1
-- begins with its first game and has no row here; each later season is a
-- row, started by an admin. Ratings are per server, season and person,
-- written with the result of each finished game between people; a new
-- season starts everyone afresh, and past seasons keep their rows.
CREATE TABLE seasons (
    guild_id   TEXT    NOT NULL,
    number     INTEGER NOT NULL,
    name       TEXT    NOT NULL DEFAULT '',
    started_at BIGINT  NOT NULL,
    started_by TEXT    NOT NULL,
    PRIMARY KEY (guild_id, number)
);

-- rated_at is when the last rated game ended: a rating's deviation grows
-- with the time since (store/ratings.go, idlePeriod).
CREATE TABLE ratings (
    guild_id   TEXT             NOT NULL,
    season     INTEGER          NOT NULL,
    user_id    TEXT             NOT NULL,
    r          DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      INTEGER          NOT NULL,
    rated_at   BIGINT           NOT NULL,
    PRIMARY KEY (guild_id, season, user_id)
);

-- Each record row says which season its game counts in; every game before
-- this migration is in season 1.
ALTER TABLE player_results ADD COLUMN season INTEGER NOT NULL DEFAULT 1;

-- The leaderboard is now a season's: the covering index leads with it.
DROP INDEX IF EXISTS player_results_board;
CREATE INDEX player_results_season_board ON player_results (guild_id, season, vs_computer, user_id, finished_at, won, games_won,
    skunks_given, double_skunks_given, skunks_taken, double_skunks_taken, name);
