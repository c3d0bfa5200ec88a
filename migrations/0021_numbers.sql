-- A player's numbers and milestones. Written with the move that finishes
-- a game, from its action log played again (cribbage.Table.Account); the
-- games finished before this migration are accounted for by it
-- (store/numbers.go, accountHistory), their milestones recorded quietly.

-- One row a person a counted game (cribbage.Table.Counted: two players,
-- no coach): the deals they dealt and those they did not, complete ones
-- only, with what they pegged, held and took from the crib, and their
-- throws reviewed against the best so far (the bot reviews them after the
-- game: ReviewThrows adds each here and marks it in deals). Stats are
-- sums over these rows, so a period is a range of finished_at.
CREATE TABLE game_numbers (
    table_id            BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat                INTEGER NOT NULL,
    guild_id            TEXT    NOT NULL,
    user_id             TEXT    NOT NULL,
    finished_at         BIGINT  NOT NULL,
    won                 INTEGER NOT NULL,
    skunks_given        INTEGER NOT NULL,
    double_skunks_given INTEGER NOT NULL,
    skunks_taken        INTEGER NOT NULL,
    double_skunks_taken INTEGER NOT NULL,
    dealer_deals        INTEGER NOT NULL,
    dealer_pegging      INTEGER NOT NULL,
    dealer_hand         INTEGER NOT NULL,
    dealer_crib         INTEGER NOT NULL,
    dealer_throws       INTEGER NOT NULL DEFAULT 0,
    dealer_given_up     DOUBLE PRECISION NOT NULL DEFAULT 0,
    pone_deals          INTEGER NOT NULL,
    pone_pegging        INTEGER NOT NULL,
    pone_hand           INTEGER NOT NULL,
    pone_throws         INTEGER NOT NULL DEFAULT 0,
    pone_given_up       DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
-- Covers a player's numbers: their rows in order of time, every summed
-- column in the index, so a player of 10,000 games is read from it alone.
CREATE INDEX game_numbers_player ON game_numbers (guild_id, user_id, finished_at, table_id, won,
    skunks_given, double_skunks_given, skunks_taken, double_skunks_taken,
    dealer_deals, dealer_pegging, dealer_hand, dealer_crib, dealer_throws, dealer_given_up,
    pone_deals, pone_pegging, pone_hand, pone_throws, pone_given_up);

-- One row a person a deal they threw in, in a counted game: the cards
-- (engine.CardSet and engine.Card as integers), what the deal scored for
-- them, and whether their throw has been reviewed and what it gave up.
-- best is the better of their hand and crib as scored (-1 if neither was
-- counted), for their best hands; best_crib says it was the crib.
CREATE TABLE deals (
    table_id    BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    hand_no     INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    guild_id    TEXT    NOT NULL,
    user_id     TEXT    NOT NULL,
    players     INTEGER NOT NULL,
    dealer_seat INTEGER NOT NULL,
    complete    INTEGER NOT NULL,
    dealt       BIGINT  NOT NULL,
    thrown      BIGINT  NOT NULL,
    starter     INTEGER NOT NULL,
    crib        BIGINT  NOT NULL,
    pegging     INTEGER NOT NULL,
    hand_points INTEGER NOT NULL,
    crib_points INTEGER NOT NULL,
    best        INTEGER NOT NULL,
    best_crib   INTEGER NOT NULL,
    reviewed    INTEGER NOT NULL DEFAULT 0,
    given_up    DOUBLE PRECISION NOT NULL DEFAULT 0,
    finished_at BIGINT  NOT NULL,
    PRIMARY KEY (table_id, hand_no, seat)
);
-- A player's best hands, the latest first among equals, read in the
-- index's order.
CREATE INDEX deals_best ON deals (guild_id, user_id, best, finished_at, table_id, hand_no);
-- The throws still to review: few at any time, so the index is small.
CREATE INDEX deals_unreviewed ON deals (finished_at, table_id) WHERE reviewed = 0;
CREATE INDEX deals_unreviewed_player ON deals (guild_id, user_id) WHERE reviewed = 0;

-- Each milestone a person earned in a server, once: the primary key is
-- what makes its news go out once, since the row and the announcement
-- are written in one transaction and a second writer of the row writes
-- nothing (ON CONFLICT DO NOTHING) and so announces nothing.
CREATE TABLE milestones (
    guild_id  TEXT   NOT NULL,
    user_id   TEXT   NOT NULL,
    milestone TEXT   NOT NULL,
    table_id  BIGINT NOT NULL,
    earned_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id, milestone)
);
