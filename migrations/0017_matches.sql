-- Matches, challenges and rematch offers. A table whose game is one of a
-- match carries the match as it stands (match_state); a challenge, the
-- person its held seat is for (challenge); a finished table, its open
-- rematch offer (rematch_offer), with the offer's time in offered_at for
-- the timer that lets it lapse. Each is the domain's value as JSON, ''
-- for none.
ALTER TABLE tables ADD COLUMN match_state TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN challenge TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN rematch_offer TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN offered_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX tables_offers ON tables (offered_at);

-- Every finished game of a match, with the game points it earned, written
-- with the game's result: a match is known by its first game's table. A
-- match nobody finished has its games here and no results.
CREATE TABLE match_games (
    match_id    BIGINT  NOT NULL,
    game        INTEGER NOT NULL,
    table_id    BIGINT  NOT NULL,
    guild_id    TEXT    NOT NULL,
    best_of     INTEGER NOT NULL,
    winner_side INTEGER NOT NULL,
    reason      TEXT    NOT NULL,
    points      INTEGER NOT NULL,
    skunk       INTEGER NOT NULL,
    vs_computer INTEGER NOT NULL,
    finished_at BIGINT  NOT NULL,
    PRIMARY KEY (match_id, game)
);

-- One row a seated person a decided match, written with the game that
-- decided it: matches won and lost, and the games and game points each
-- side took. conceded marks a match given up (resigned, or a game
-- forfeited) before a side won enough games.
CREATE TABLE match_results (
    match_id       BIGINT  NOT NULL,
    guild_id       TEXT    NOT NULL,
    user_id        TEXT    NOT NULL,
    name           TEXT    NOT NULL,
    side           INTEGER NOT NULL,
    won            INTEGER NOT NULL,
    best_of        INTEGER NOT NULL,
    games_won      INTEGER NOT NULL,
    games_lost     INTEGER NOT NULL,
    points_for     INTEGER NOT NULL,
    points_against INTEGER NOT NULL,
    conceded       INTEGER NOT NULL,
    vs_computer    INTEGER NOT NULL,
    finished_at    BIGINT  NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX match_results_user ON match_results (guild_id, user_id, finished_at);
