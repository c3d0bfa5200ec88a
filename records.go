package cribbage

import (
	"slices"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
)

// The records' policy: what a finished game counts for in each seated
// person's record (Results), and whether and how it moves their ratings
// (Rated, RatingBouts, RatingIdle). The domain states it; the store and
// the in-memory double apply it, and the rating arithmetic (package
// rating, Glicko-2) stays out of the domain.

// PlayerResult is one seated person's line in the records of a finished
// game.
type PlayerResult struct {
	Seat   int
	UserID string
	Name   string
	Side   int
	Won    bool
	// GamesWon is what the win is worth to a winner (a skunk 2 games, a
	// double skunk 4); 0 for a loser.
	GamesWon int
	// SkunksGiven and DoubleSkunksGiven count, for a winner, the losing
	// sides skunked; SkunksTaken and DoubleSkunksTaken, for a loser, its
	// own side's skunk line (at most one of them is 1).
	SkunksGiven       int
	DoubleSkunksGiven int
	SkunksTaken       int
	DoubleSkunksTaken int
	// Score is the side's score at the end.
	Score int
	Tally engine.Tally
}

// Results returns the records of finished table t: one line a seated
// person, in seat order (computer seats have none). Partners are credited
// alike, as they share one score. With three or four players each for
// themselves the winner is credited with every skunk given (each loser
// below the line is one) and each loser with their own skunk line, so a
// three-hander's winner who leaves both others below 91 has given two
// skunks. A table without a result has no records.
func (t *Table) Results() []PlayerResult {
	if t.State == nil || t.State.Result == nil {
		return nil
	}
	r := t.State.Result
	var given, doubleGiven int
	for side, level := range r.Skunks {
		if side != r.Winner {
			given += boolInt(level == 1)
			doubleGiven += boolInt(level == 2)
		}
	}
	var out []PlayerResult
	for i, seat := range t.Seats {
		if seat.Computer != "" {
			continue
		}
		side := t.Options.SideOf(i)
		p := PlayerResult{Seat: i, UserID: seat.UserID, Name: seat.Name, Side: side, Won: side == r.Winner, Score: r.Scores[side]}
		if i < len(t.State.Tally) {
			p.Tally = t.State.Tally[i]
		}
		if p.Won {
			p.GamesWon, p.SkunksGiven, p.DoubleSkunksGiven = r.Games, given, doubleGiven
		} else if side < len(r.Skunks) {
			p.SkunksTaken, p.DoubleSkunksTaken = boolInt(r.Skunks[side] == 1), boolInt(r.Skunks[side] == 2)
		}
		out = append(out, p)
	}
	return out
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Rated reports whether finished table t moves its players' ratings, in
// the season current when it finishes:
//
//   - Only a game where every seat is a person: a computer at the table,
//     as opponent or partner, rates nobody.
//   - A resignation before any card has left a hand (nobody has thrown to
//     the crib, nobody has laid a card) rates nobody: such a game says
//     nothing of how anyone plays, and rating it would let a friend's
//     second account feed someone a win a click at a time. It is still
//     in the records, as the resigner's loss: the table says who resigned,
//     and a match or tournament counts it.
//   - Any other resignation, or a claimed forfeit (however early: the
//     claimer waited the forfeit time for it), is a loss for the side that
//     resigned or kept the table waiting.
func (t *Table) Rated() bool {
	if t.State == nil || t.State.Result == nil || t.HasComputer() {
		return false
	}
	return t.State.Result.Reason != engine.ReasonResigned || CardPlayed(t.State)
}

// CardPlayed reports whether any card of game g has left a player's
// hand: thrown to the crib, or laid in the play. The first hand's deal
// and the cut for it are no card played.
func CardPlayed(g *engine.State) bool {
	if g.HandNo > 1 || len(g.Plays) > 0 {
		return true
	}
	return slices.ContainsFunc(g.Discards, func(d engine.CardSet) bool { return d != 0 })
}

// Bout is one contest a rated game is rated as: Winners beat Losers.
// Each player is rated against the other side taken as one player (for
// partners, the pair's average: rating.Team), and all of a game's bouts
// are one rating period, from the ratings before the game.
type Bout struct {
	Winners []string
	Losers  []string
}

// RatingBouts returns what a rated game between the players of lines
// (Results, or the same read back from the records) is rated as:
//
//   - Two sides (two players, or two partnerships) are one bout, side
//     against side, so partners share the win or the loss whoever pegged
//     it.
//   - Three or four players each for themselves: the winner has beaten
//     each of the others, one bout each, and each of the others has lost
//     to the winner. The losers are not compared with each other:
//     cribbage has one winner, and the others' scores are wherever they
//     stood when the game ended (or when someone resigned), not a
//     finishing order they played for.
//
// A skunk is one bout like any other: the rating weighs whom you beat,
// not by how much. Lines without exactly one winning side give none.
func RatingBouts(lines []PlayerResult) []Bout {
	var sides []int
	bySide := map[int][]string{}
	winners := map[int]bool{}
	for _, p := range lines {
		if _, ok := bySide[p.Side]; !ok {
			sides = append(sides, p.Side)
		}
		bySide[p.Side] = append(bySide[p.Side], p.UserID)
		winners[p.Side] = winners[p.Side] || p.Won
	}
	won := slices.IndexFunc(sides, func(s int) bool { return winners[s] })
	if len(sides) < 2 || won < 0 || slices.IndexFunc(sides[won+1:], func(s int) bool { return winners[s] }) >= 0 {
		return nil
	}
	w := bySide[sides[won]]
	var out []Bout
	for _, s := range sides {
		if s != sides[won] {
			out = append(out, Bout{Winners: slices.Clone(w), Losers: bySide[s]})
		}
	}
	return out
}

// RatingIdle is how long without a rated game counts as one rating period
// of inactivity (rating.Idle): a rating's RD widens by one such step for
// every whole RatingIdle since the player's last rated game. It is
// applied when the player next plays, and to what the leaderboard and
// stats show, so nothing has to run while nobody plays.
//
// A week suits a club's rhythm: a regular who plays once a week gets one
// idle step a game and stays settled (an RD of about 73, against 60 for
// one who plays more often), while a settled player who stops playing
// drifts back to provisional after about a year and a half (79 weeks).
// With a day instead, a once-a-week player would sit at an RD of about
// 104, a fortnight's break from provisional, and every rating would move
// more on each game.
const RatingIdle = 7 * 24 * time.Hour

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
