package cribbage

import "time"

// Standing is one player's line on a leaderboard: their rating in the
// season, and their record over the games the leaderboard counts.
type Standing struct {
	Rank        int
	UserID      string
	Name        string
	Rating      Rating
	Games       int
	Wins        int
	Losses      int
	GamesWon    int // a skunk counts 2, a double skunk 4
	SkunksGiven int // double skunks included
	SkunksTaken int // double skunks included
}

// Record is one player's totals over a set of games.
type Record struct {
	Games             int
	Wins              int
	Losses            int
	GamesWon          int
	SkunksGiven       int
	DoubleSkunksGiven int
	SkunksTaken       int
	DoubleSkunksTaken int
	Pegging           int
	HandPoints        int
	Hands             int
	CribPoints        int
	Cribs             int
	BestHand          int
	TwentyNines       int
}

// Stats are a player's records in a server: against people and against
// the computer apart, the current streak against people (positive for
// wins in a row, negative for losses), matches against people, and their
// rating in the current season.
type Stats struct {
	Name       string
	People     Record
	Computer   Record
	Streak     int
	LastPlayed time.Time
	Matches    MatchRecord
	Season     int
	Rating     Rating
}

// Rating is a player's skill rating in one season of a server, from games
// between people only (Glicko-2, package rating). R is the number players
// see: everyone starts a season at 1500, and between two settled players
// the one 200 ahead is expected to win about three games in four. RD is
// how unsure R still is, in rating points: it narrows with each game and
// widens again with time away.
type Rating struct {
	R  float64
	RD float64
	// Games counts the player's rated games in the season.
	Games int
	// Provisional is set while RD is too wide to rank on with confidence
	// (above rating.ProvisionalRD): a newcomer's first games, or a long
	// time away.
	Provisional bool
}

// Season is a stretch of a server's rated play. Season 1 begins with the
// server's first game between people; an admin starts each one after it,
// and every rating starts the new season afresh. A past season's ratings
// and leaderboard stay as they were.
type Season struct {
	Number int
	// Name is what the admin who started it called it, or empty.
	Name string
	// StartedAt is when it began: for season 1, the end of the first game
	// between people (zero before there is one).
	StartedAt time.Time
	// StartedBy is the user id of the admin who started it; empty for
	// season 1.
	StartedBy string
	// Games counts the games between people finished in it.
	Games int
}

// MatchRecord counts a player's decided matches, won and lost.
type MatchRecord struct {
	Matches int
	Won     int
	Lost    int
}

// HeadToHead is the record between two players on opposite sides.
type HeadToHead struct {
	Games int
	AWins int
	BWins int
}
