package cribbage

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
)

// Milestones are what a cribbage player is proud of — a 29 hand, a double
// skunk, a game pegged out from behind — earned once each, per server.
// What earns one is stated here, as data read from a change's events, a
// finished game's account and result, and a player's career; the store
// (and its double) records each the first time it is earned, in the
// transaction of the change that earns it, and queues its news in the
// table's story in that same transaction: a milestone recorded is
// announced, and a restart or a second replica finds it recorded and
// announces nothing.

// Milestone names a milestone.
type Milestone string

// The milestones, in the order players see them.
const (
	// A hand or crib counted in the show (its true worth, claimed or not).
	TwentyNine    Milestone = "twenty-nine"     // the 29 hand
	TwentyEight   Milestone = "twenty-eight"    // 28
	TwentyFour    Milestone = "twenty-four"     // 24 (the best after 28)
	Twenty        Milestone = "twenty"          // 20 to 23
	FiveCardFlush Milestone = "five-card-flush" // a flush with the starter
	FourOfAKind   Milestone = "four-of-a-kind"  // four of a rank, starter included

	// The play.
	DoublePairRoyal Milestone = "double-pair-royal" // the fourth of a rank in the play: 12
	RunOfFive       Milestone = "run-of-five"       // a run of five or more in the play
	BigPegging      Milestone = "big-pegging"       // 12 or more pegged in one hand's play
	Muggins         Milestone = "muggins"           // points an opponent missed, taken

	// A game's end.
	FirstWin        Milestone = "first-win"         // a win against people
	BeatTheComputer Milestone = "beat-the-computer" // a win against a computer player
	BeatStrong      Milestone = "beat-strong"       // against the strong computer
	ThreeHandedWin  Milestone = "three-handed-win"  // a three-player game won
	FourHandedWin   Milestone = "four-handed-win"   // four players, each for themselves
	PartnershipWin  Milestone = "partnership-win"   // partners
	Skunk           Milestone = "skunk"             // a loser on 90 or fewer (30 at 61)
	DoubleSkunk     Milestone = "double-skunk"      // a loser on 60 or fewer
	PeggedOutBehind Milestone = "pegged-out-behind" // behind at the last deal, won in the play
	Comeback        Milestone = "comeback"          // won after trailing by ComebackPoints
	StinkHole       Milestone = "stink-hole"        // won with a loser one short of the target
	MatchWon        Milestone = "match-won"         // a match won
	TournamentWon   Milestone = "tournament-won"    // a tournament's champion

	// A career: thresholds, earned by the game that reaches them.
	Games10    Milestone = "games-10"
	Games100   Milestone = "games-100"
	Games500   Milestone = "games-500"
	Wins10     Milestone = "wins-10"
	Wins50     Milestone = "wins-50"
	Wins100    Milestone = "wins-100"
	Streak5    Milestone = "streak-5"
	Streak10   Milestone = "streak-10"
	DailyWeek  Milestone = "daily-week"  // a daily hand played 7 days in a row
	DailyMonth Milestone = "daily-month" // 30 days in a row
)

// AllMilestones lists every milestone in the order players see them.
var AllMilestones = []Milestone{
	TwentyNine, TwentyEight, TwentyFour, Twenty, FiveCardFlush, FourOfAKind,
	DoublePairRoyal, RunOfFive, BigPegging, Muggins,
	FirstWin, BeatTheComputer, BeatStrong, ThreeHandedWin, FourHandedWin, PartnershipWin,
	Skunk, DoubleSkunk, PeggedOutBehind, Comeback, StinkHole, MatchWon, TournamentWon,
	Games10, Games100, Games500, Wins10, Wins50, Wins100, Streak5, Streak10, DailyWeek, DailyMonth,
}

// ComebackPoints is how far behind a winner must have been for a
// comeback: more than a good deal's worth (the published averages make a
// dealer's deal about 16 and the pone's about 10, so 30 is two deals'
// swing).
const ComebackPoints = 30

// BigPeggingPoints is what one hand's play must peg for BigPegging: more
// than three times the dealer's published average of 3.5.
const BigPeggingPoints = 12

// Earned is a milestone a person earned at a table: in its hand Hand (the
// game's last for what a game's end earns), where its news goes.
type Earned struct {
	UserID    string    `json:"user_id"`
	Name      string    `json:"name"`
	Milestone Milestone `json:"milestone"`
	TableID   int64     `json:"table_id"`
	Hand      int       `json:"hand,omitempty"`
}

// EarnedMilestone is a milestone in a player's records: where and when
// they earned it.
type EarnedMilestone struct {
	Milestone Milestone
	TableID   int64
	At        time.Time
}

// SortMilestones puts a player's milestones in the order earned: by
// time, then table, and those earned together in the order of
// AllMilestones.
func SortMilestones(ms []EarnedMilestone) {
	slices.SortStableFunc(ms, func(a, b EarnedMilestone) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		if a.TableID != b.TableID {
			return cmp.Compare(a.TableID, b.TableID)
		}
		return cmp.Compare(slices.Index(AllMilestones, a.Milestone), slices.Index(AllMilestones, b.Milestone))
	})
}

// OutboxMilestone is the kind of the announcement a milestone's news is
// queued as: the one kind the store queues itself, with the milestone
// recorded, since only there is it known to be the first. Its payload is
// the Earned as JSON (MilestoneNews); the bot words it when it sends the
// table's story.
const OutboxMilestone = "milestone"

// MilestoneNews is the announcement of e, earned by a change at a table
// in channelID that queues out: it goes with the change's own story. It
// waits, as a hand's lines do, when all of out waits (a hand told as it
// goes, whose record is posted when it ends); otherwise it is sent with
// or after the change's post.
func MilestoneNews(e Earned, channelID string, out []Outbound) Outbound {
	waits := len(out) > 0 && !slices.ContainsFunc(out, func(o Outbound) bool { return !o.Waits })
	b, err := json.Marshal(e)
	if err != nil {
		panic("cribbage: encode a milestone: " + err.Error()) // strings and numbers always encode
	}
	return Outbound{ChannelID: channelID, Kind: OutboxMilestone, Payload: string(b), Waits: waits}
}

// ReadMilestoneNews reads a milestone's announcement back.
func ReadMilestoneNews(payload string) (Earned, error) {
	var e Earned
	err := json.Unmarshal([]byte(payload), &e)
	return e, err
}

// MilestonesNow returns the milestones the people at t earn by events, a
// change's events: the hands and cribs counted, the cards laid and the
// muggins taken. A computer earns none. Each is earned in the hand whose
// record tells the event (render.Story's reckoning): a change that shows
// one hand and deals the next tells the show in the first.
func MilestonesNow(t *Table, events []engine.Event) []Earned {
	if t.State == nil {
		return nil
	}
	hand := t.State.HandNo
	for _, e := range events {
		if e.Kind == engine.EvDeal {
			hand--
		}
	}
	var out []Earned
	earn := func(seat int, m Milestone) {
		if seat < 0 || seat >= len(t.Seats) || t.Seats[seat].Computer != "" {
			return
		}
		e := Earned{UserID: t.Seats[seat].UserID, Name: t.Seats[seat].Name, Milestone: m, TableID: t.ID, Hand: hand}
		if !slices.ContainsFunc(out, func(o Earned) bool { return o.UserID == e.UserID && o.Milestone == m }) {
			out = append(out, e)
		}
	}
	for _, e := range events {
		switch e.Kind {
		case engine.EvDeal:
			hand = e.N
		case engine.EvShow, engine.EvClaim:
			for _, m := range showMilestones(e) {
				earn(e.Seat, m)
			}
		case engine.EvPlay:
			for _, it := range e.Items {
				if it.Kind == engine.KindPair && it.Points == 12 {
					earn(e.Seat, DoublePairRoyal)
				}
				if it.Kind == engine.KindRun && it.Points >= 5 {
					earn(e.Seat, RunOfFive)
				}
			}
		case engine.EvMuggins:
			if slices.ContainsFunc(e.Items, func(it engine.ScoreItem) bool { return it.Kind == engine.KindMuggins }) {
				earn(e.Seat, Muggins)
			}
		}
	}
	return out
}

// showMilestones returns what a hand or crib shown by e earns, by what it
// was worth: only the best of the point milestones, so a 29 is a 29 and
// not also a 20.
func showMilestones(e engine.Event) []Milestone {
	var out []Milestone
	switch worth := itemsTotal(e.Items); {
	case worth == 29:
		out = append(out, TwentyNine)
	case worth == 28:
		out = append(out, TwentyEight)
	case worth >= 24:
		out = append(out, TwentyFour)
	case worth >= 20:
		out = append(out, Twenty)
	}
	if slices.ContainsFunc(e.Items, func(it engine.ScoreItem) bool { return it.Kind == engine.KindFlush && it.Points == 5 }) {
		out = append(out, FiveCardFlush)
	}
	ranks := map[engine.Rank]int{}
	for _, c := range append(slices.Clone(e.Cards), e.Card) {
		ranks[c.Rank()]++
		if ranks[c.Rank()] == 4 {
			out = append(out, FourOfAKind)
		}
	}
	return out
}

// Career is a person's records in a server after a game: the games they
// have finished, their wins against people, and their current streak
// against people (positive for wins in a row).
type Career struct {
	Games  int
	Wins   int
	Streak int
}

// CareerMilestones returns the career milestones a career has reached.
// Each is earned the first time it is reached, so they are thresholds:
// a milestone one game's records were too late to see (two games ending
// at once) is earned by the next.
func CareerMilestones(c Career) []Milestone {
	var out []Milestone
	for _, th := range []struct {
		n int
		m Milestone
		v int
	}{
		{10, Games10, c.Games}, {100, Games100, c.Games}, {500, Games500, c.Games},
		{10, Wins10, c.Wins}, {50, Wins50, c.Wins}, {100, Wins100, c.Wins},
		{5, Streak5, c.Streak}, {10, Streak10, c.Streak},
	} {
		if th.v >= th.n {
			out = append(out, th.m)
		}
	}
	return out
}

// DailyMilestones returns the milestones a run of days daily hands in
// a row (Streak) reaches. They are earned by the answer that reaches
// them, in the server it is given in (DailyEarned).
func DailyMilestones(days int) []Milestone {
	var out []Milestone
	if days >= 7 {
		out = append(out, DailyWeek)
	}
	if days >= 30 {
		out = append(out, DailyMonth)
	}
	return out
}

// DailyEarned is what answer a earns, given days, the days its player
// has answered (a's own among them): the daily milestones of their run
// of days in a row up to a's, in a's server. An answer given outside a
// server (a DM) earns them in none: the next one given in a server,
// with the run still going, does. The daily hand has no table, so
// TableID is 0 and there is no hand's record to tell them in: they are
// shown in the player's stats.
func DailyEarned(a DailyAnswer, days []Day) []Earned {
	if a.GuildID == "" {
		return nil
	}
	var out []Earned
	for _, m := range DailyMilestones(Streak(days, a.Day)) {
		out = append(out, Earned{UserID: a.UserID, Name: a.Name, Milestone: m})
	}
	return out
}

// strongLevels are the computer levels that count as the strong
// computer: the expert, and classic, which was the strong level before
// the expert and still plays at the tables that chose it.
var strongLevels = []string{"expert", "classic"}

// GameMilestones returns what the people at finished table t earn by its
// game as a whole: by its result, by its account (nil when its log does
// not replay: what needs the account is then left unearned), and by each
// person's career after it (careers, by user id). A game's end is told in
// its last hand's record. A game resigned before any card left a hand
// earns nothing, as it rates nobody (Table.Rated): nobody played it, and
// a friend's second account could otherwise hand out wins a click at a
// time; what it adds to a career is earned by the next game played.
func GameMilestones(t *Table, a *Account, careers map[string]Career) []Earned {
	if t.State == nil || t.State.Result == nil || !CardPlayed(t.State) {
		return nil
	}
	var out []Earned
	for seat, s := range t.Seats {
		if s.Computer != "" {
			continue
		}
		for _, m := range seatMilestones(t, a, seat) {
			out = appendEarned(out, t, seat, m)
		}
		if c, ok := careers[s.UserID]; ok {
			for _, m := range CareerMilestones(c) {
				out = appendEarned(out, t, seat, m)
			}
		}
	}
	return out
}

// appendEarned adds m earned by seat's person at t, unless a partner's
// seat of the same person earned it already.
func appendEarned(out []Earned, t *Table, seat int, m Milestone) []Earned {
	s := t.Seats[seat]
	if slices.ContainsFunc(out, func(e Earned) bool { return e.UserID == s.UserID && e.Milestone == m }) {
		return out
	}
	return append(out, Earned{UserID: s.UserID, Name: s.Name, Milestone: m, TableID: t.ID, Hand: t.State.HandNo})
}

// seatMilestones returns what seat earns by t's finished game, career
// apart.
func seatMilestones(t *Table, a *Account, seat int) []Milestone {
	r, o := t.State.Result, t.Options
	side := o.SideOf(seat)
	var out []Milestone
	if a != nil {
		for _, d := range a.Deals {
			if d.Seats[seat].Pegging >= BigPeggingPoints {
				out = append(out, BigPegging)
				break
			}
		}
	}
	if side != r.Winner {
		return out
	}
	computer, strong := false, false
	for i, s := range t.Seats {
		if s.Computer != "" && o.SideOf(i) != side {
			computer = true
			strong = strong || slices.Contains(strongLevels, s.Computer)
		}
	}
	switch {
	case !t.HasComputer():
		out = append(out, FirstWin)
	case computer:
		out = append(out, BeatTheComputer)
		if strong {
			out = append(out, BeatStrong)
		}
	}
	switch {
	case o.Partners:
		out = append(out, PartnershipWin)
	case o.Players == 3:
		out = append(out, ThreeHandedWin)
	case o.Players == 4:
		out = append(out, FourHandedWin)
	}
	if slices.Contains(r.Skunks, 1) {
		out = append(out, Skunk)
	}
	if slices.Contains(r.Skunks, 2) {
		out = append(out, DoubleSkunk)
	}
	if a != nil && a.WonInPlay && behindAt(a.LastDealt, side) {
		out = append(out, PeggedOutBehind)
	}
	if a != nil && a.Behind[side] >= ComebackPoints {
		out = append(out, Comeback)
	}
	if r.Reason == engine.ReasonTarget && slices.ContainsFunc(r.Scores, func(s int) bool { return s == o.Target-1 }) {
		out = append(out, StinkHole)
	}
	if m := t.Match; m != nil && m.Over() && m.Winner() == side {
		out = append(out, MatchWon)
	}
	return out
}

// behindAt reports whether side's score in scores is below another's.
func behindAt(scores []int, side int) bool {
	for other, s := range scores {
		if other != side && s > scores[side] {
			return true
		}
	}
	return false
}

// ChampionMilestone returns what crowning tournament t's champion earns,
// if a change made from before crowns one who is a person: their
// TournamentWon, told in the thread of table (the tournament's last
// game) after its record, between hands (Hand 0): the crowning comes in
// the tournament's own change, after the game's.
func ChampionMilestone(before, t *Tournament, table *Table) (Earned, bool) {
	if t.Champion == "" || before.Champion != "" || table == nil {
		return Earned{}, false
	}
	for _, e := range t.Entrants {
		if e.UserID == t.Champion && e.Computer == "" {
			return Earned{UserID: e.UserID, Name: e.Name, Milestone: TournamentWon, TableID: table.ID}, true
		}
	}
	return Earned{}, false
}
