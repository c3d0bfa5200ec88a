package cribbage

import "time"

// Standing is one player's line on a leaderboard.
type Standing struct {
	Rank        int
	UserID      string
	Name        string
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
// wins in a row, negative for losses), and matches against people.
type Stats struct {
	Name       string
	People     Record
	Computer   Record
	Streak     int
	LastPlayed time.Time
	Matches    MatchRecord
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
