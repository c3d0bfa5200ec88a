package cribbage

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
)

// A player's numbers — what they peg, hold and take from the crib a deal,
// as dealer and as the other player, and what their throws to the crib
// gave up against the best — come from the games already recorded: a
// finished game's action log played again through the engine (Account),
// one line a person a deal. Nothing is counted twice or kept apart from
// the games, so the numbers cannot drift from them. Which games count, and
// what each line is worth, is stated here; the store keeps the lines and
// adds them up, and the in-memory double does the same.

// ErrUnaccounted means a table's action log does not play again to the
// game the table holds: its numbers are left out rather than guessed.
var ErrUnaccounted = errors.New("cribbage: the game's log does not replay to its end")

// Deal is one hand of a game as dealt, played and shown.
type Deal struct {
	Hand   int
	Dealer int
	// Starter is the card turned, or engine.NoCard if the game ended
	// before it was.
	Starter engine.Card
	// Crib is the dealer's crib (with three players, the deck's card
	// among it).
	Crib engine.CardSet
	// Seats holds each seat's part of the deal, by seat.
	Seats []DealSeat
	// Complete reports that the hand was shown to its end, the crib
	// counted: a game's last hand is complete only if nobody reached the
	// target before its show was over.
	Complete bool
}

// DealSeat is one seat's part of a deal.
type DealSeat struct {
	// Dealt is the seat's cards as dealt, Thrown what it threw to the
	// crib (0 if the game ended before it threw).
	Dealt, Thrown engine.CardSet
	// Pegging is what the seat pegged in the play, his heels included.
	Pegging int
	// Hand is what its hand scored in the show, and Crib the dealer's
	// crib, as pegged: at a table counted by hand, the claim (RULES.md
	// "Counting by hand"); muggins taken from it counts for the taker,
	// not here. HandShown and CribShown say they were counted.
	Hand, Crib           int
	HandShown, CribShown bool
	// HandTrue and CribTrue are what the hand and crib were worth, claimed
	// or not: a milestone is for the cards held.
	HandTrue, CribTrue int
}

// Kept is the seat's hand after its throw.
func (d DealSeat) Kept() engine.CardSet { return d.Dealt &^ d.Thrown }

// Account is a finished game told again from its log: each deal, and
// how the scores went.
type Account struct {
	Deals []Deal
	// Behind holds, a side, the most it trailed the leading other side by
	// at any moment of the game.
	Behind []int
	// LastDealt holds each side's score when the game's last hand was
	// dealt.
	LastDealt []int
	// WonInPlay reports that the winning points were pegged (in the play,
	// or his heels), not counted in the show.
	WonInPlay bool
	// Earned are the milestones the game's moves earned as they were made
	// (MilestonesNow), move by move.
	Earned []Earned
}

// Account plays finished table t's game again from its log (its
// TableService.Actions) and tells each deal. It fails with ErrUnaccounted
// if the log does not play again to the game t holds: a game saved
// without its log, or one whose rules have changed since.
func (t *Table) Account(actions []LoggedAction) (*Account, error) {
	if t.State == nil || t.State.Result == nil {
		return nil, fmt.Errorf("%w: table %d is not finished", ErrUnaccounted, t.ID)
	}
	g, err := GameStart(t, actions)
	if err != nil {
		return nil, err
	}
	a := &Account{Behind: make([]int, t.Options.Sides())}
	var cur *Deal
	for _, la := range actions {
		next, events, err := g.Apply(la.Action)
		if err != nil {
			return nil, fmt.Errorf("%w: table %d: %v", ErrUnaccounted, t.ID, err)
		}
		if la.Action.Kind == engine.ActDeal {
			a.Deals = append(a.Deals, Deal{Hand: next.HandNo, Dealer: next.Dealer, Seats: make([]DealSeat, len(next.Hands))})
			cur = &a.Deals[len(a.Deals)-1]
			for seat, h := range next.Hands {
				cur.Seats[seat].Dealt = h
			}
			a.LastDealt = slices.Clone(next.Scores)
		}
		if cur != nil && la.Action.Kind == engine.ActDiscard {
			cur.Seats[la.Action.Seat].Thrown = engine.SetOf(la.Action.Cards...)
		}
		for _, e := range events {
			a.note(cur, next, e)
		}
		at := *t
		at.State = next
		a.Earned = append(a.Earned, MilestonesNow(&at, events)...)
		g = next
	}
	if g.Result == nil || !slices.Equal(g.Scores, t.State.Scores) || g.HandNo != t.State.HandNo {
		return nil, fmt.Errorf("%w: table %d replays to %v, not %v", ErrUnaccounted, t.ID, g.Scores, t.State.Scores)
	}
	return a, nil
}

// note counts one event of the game into the account: cur is the deal
// being played, g the game after the event's action.
func (a *Account) note(cur *Deal, g *engine.State, e engine.Event) {
	if e.Scores != nil {
		for side, s := range e.Scores {
			for other, o := range e.Scores {
				if other != side {
					a.Behind[side] = max(a.Behind[side], o-s)
				}
			}
		}
	}
	if cur == nil {
		return
	}
	switch e.Kind {
	case engine.EvStarter:
		cur.Starter, cur.Crib = e.Card, g.Crib
	case engine.EvPlay, engine.EvGoPoint, engine.EvLastCard, engine.EvHeels:
		cur.Seats[e.Seat].Pegging += e.Points
	case engine.EvShow, engine.EvClaim:
		s := &cur.Seats[e.Seat]
		worth := itemsTotal(e.Items)
		if e.Crib {
			s.Crib, s.CribShown, s.CribTrue = e.Points, true, worth
		} else {
			s.Hand, s.HandShown, s.HandTrue = e.Points, true, worth
		}
	case engine.EvHandOver:
		cur.Complete = true
	case engine.EvGameOver:
		a.WonInPlay = g.Phase == engine.PhaseOver && g.Result.Reason == engine.ReasonTarget && g.Shown == 0
	}
}

// itemsTotal adds up a breakdown's points.
func itemsTotal(items []engine.ScoreItem) int {
	n := 0
	for _, it := range items {
		n += it.Points
	}
	return n
}

// GameStart is t's game before its first logged action: cut for deal
// from the table's seed, or, for a game that follows another (no cut),
// dealt first by whoever made the first deal.
func GameStart(t *Table, actions []LoggedAction) (*engine.State, error) {
	if t.CutSeed != nil {
		g, _, err := engine.New(t.Options, *t.CutSeed)
		return g, err
	}
	for _, la := range actions {
		if la.Action.Kind == engine.ActDeal {
			return engine.NewWithDealer(t.Options, la.Action.Seat)
		}
	}
	return nil, fmt.Errorf("%w: table %d has no deal", ErrUnaccounted, t.ID)
}

// Counted reports whether finished table t's game counts in its players'
// numbers: a two-player game (the published averages a player's are set
// beside are two-player figures, and a deal's roles are plain only there:
// one dealer, one pone) where nobody asked the coach, whose advice would
// be in the numbers as the player's own.
func (t *Table) Counted(assisted bool) bool {
	return t.Options.Players == 2 && !assisted
}

// Numbers are a player's numbers in a server, from their counted games
// (Table.Counted): over the last 30 days and over all time, their best
// hands, their milestones, and the games of their trend.
type Numbers struct {
	Recent, All Period
	// Best are their best hands or cribs, best first: at most three.
	Best []BestHand
	// Milestones are what they have earned, in the order earned.
	Milestones []EarnedMilestone
	// Trend is their last counted games, oldest first: at most TrendGames.
	Trend []TrendGame
	// Unreviewed counts their throws not yet reviewed against the best:
	// each is reviewed soon after its game, by the coach's reckoning.
	Unreviewed int
}

// RecentDays is how far back a player's recent numbers go.
const RecentDays = 30

// TrendGames is how many of a player's last games their trend shows.
const TrendGames = 40

// Period is a player's numbers over some of their counted games.
type Period struct {
	Games int
	Wins  int
	// SkunksGiven and SkunksTaken count double skunks too; the Double
	// fields count those alone.
	SkunksGiven, DoubleSkunksGiven int
	SkunksTaken, DoubleSkunksTaken int
	// Dealer and Pone are the complete deals they dealt, and those they
	// did not.
	Dealer, Pone Role
}

// Role is what a player did in one role over a number of complete
// deals, and over their reviewed throws in that role.
type Role struct {
	Deals   int
	Pegging int
	Hand    int
	Crib    int
	// Throws counts the throws reviewed, and GivenUp adds up what each
	// gave up against the best throw, in expected points.
	Throws  int
	GivenUp float64
}

// PerDeal is points averaged over the role's deals; false with none.
func (r Role) PerDeal(points int) (float64, bool) {
	if r.Deals == 0 {
		return 0, false
	}
	return float64(points) / float64(r.Deals), true
}

// GivenUpPerThrow is what a throw gave up on average; false with none
// reviewed.
func (r Role) GivenUpPerThrow() (float64, bool) {
	if r.Throws == 0 {
		return 0, false
	}
	return r.GivenUp / float64(r.Throws), true
}

// Add counts another role's numbers in.
func (r *Role) Add(o Role) {
	r.Deals += o.Deals
	r.Pegging += o.Pegging
	r.Hand += o.Hand
	r.Crib += o.Crib
	r.Throws += o.Throws
	r.GivenUp += o.GivenUp
}

// BestHand is one of a player's best hands or cribs.
type BestHand struct {
	Points  int
	Cards   engine.CardSet
	Starter engine.Card
	Crib    bool
	TableID int64
	At      time.Time
}

// TrendGame is one counted game in a player's trend: its complete deals
// and the points they scored in them (pegged, held and from the crib),
// and its reviewed throws with what they gave up.
type TrendGame struct {
	TableID int64
	At      time.Time
	Deals   int
	Points  int
	Throws  int
	GivenUp float64
}

// GameNumbers is one person's numbers from one counted game, as the
// records keep them: what Period and the trend add up.
type GameNumbers struct {
	Seat         int
	UserID       string
	Dealer, Pone Role
}

// NumbersOf returns the numbers of each person at finished table t from
// its account, by seat (computer seats have none). Only complete deals
// count: a game's last hand, cut short by the win, would count a play
// with no show after it.
func (t *Table) NumbersOf(a *Account) []GameNumbers {
	var out []GameNumbers
	for seat, s := range t.Seats {
		if s.Computer != "" {
			continue
		}
		n := GameNumbers{Seat: seat, UserID: s.UserID}
		for _, d := range a.Deals {
			if !d.Complete {
				continue
			}
			ds := d.Seats[seat]
			r := Role{Deals: 1, Pegging: ds.Pegging, Hand: ds.Hand, Crib: ds.Crib}
			if d.Dealer == seat {
				n.Dealer.Add(r)
			} else {
				n.Pone.Add(r)
			}
		}
		out = append(out, n)
	}
	return out
}

// Throw is a person's throw to the crib, to be reviewed against the
// best (what the coach's Review my last discard does for one).
type Throw struct {
	TableID int64
	Hand    int
	Seat    int
	Dealer  int
	Options engine.Options
	Dealt   engine.CardSet
	Thrown  engine.CardSet
}

// ThrowReview is what a reviewed throw gave up against the best throw,
// in expected points (0 for the best).
type ThrowReview struct {
	TableID int64
	Hand    int
	Seat    int
	GivenUp float64
}
