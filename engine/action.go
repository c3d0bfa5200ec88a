package engine

import (
	"fmt"
	"slices"
)

// ActionKind names what a seat does.
type ActionKind uint8

// The actions a seat can take.
const (
	ActDeal    ActionKind = iota + 1 // the dealer deals from Seed
	ActDiscard                       // throw Cards to the crib
	ActPlay                          // lay Card in the play
	ActClaim                         // manual counting: claim Points for your hand or crib
	ActMuggins                       // take the points in Missed[Index] that an opponent missed
	ActResign                        // concede the game
	ActForfeit                       // claim the win from Other, who has not moved in time (the caller checks the time)
)

var actionNames = map[ActionKind]string{
	ActDeal: "deal", ActDiscard: "discard", ActPlay: "play", ActClaim: "claim",
	ActMuggins: "muggins", ActResign: "resign", ActForfeit: "forfeit",
}

// String returns the name.
func (k ActionKind) String() string { return nameOf(actionNames, k) }

// MarshalText writes the kind's name.
func (k ActionKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a name.
func (k *ActionKind) UnmarshalText(b []byte) error { return parseName(actionNames, b, k, ErrBadAction) }

// Action is one move by one seat.
type Action struct {
	Kind   ActionKind `json:"kind"`
	Seat   int        `json:"seat"`
	Card   Card       `json:"card,omitempty"`
	Cards  []Card     `json:"cards,omitempty"`
	Seed   *Seed      `json:"seed,omitempty"`
	Points int        `json:"points,omitempty"`
	Index  int        `json:"index,omitempty"`
	Other  int        `json:"other,omitempty"`
}

// Apply applies a to the state and returns the next state and the events
// that happened. On error the returned state is g itself, unchanged; g is
// never modified either way.
func (g *State) Apply(a Action) (*State, []Event, error) {
	if a.Seat < 0 || a.Seat >= g.Options.Players {
		return g, nil, fmt.Errorf("%w: seat %d", ErrBadSeat, a.Seat)
	}
	if g.Phase == PhaseOver {
		return g, nil, ErrGameOver
	}
	next := g.Clone()
	var err error
	var events []Event
	switch a.Kind {
	case ActDeal:
		events, err = next.deal(a)
	case ActDiscard:
		events, err = next.discard(a)
	case ActPlay:
		events, err = next.play(a)
	case ActClaim:
		events, err = next.claim(a)
	case ActMuggins:
		events, err = next.muggins(a)
	case ActResign:
		events, err = next.resign(a)
	case ActForfeit:
		events, err = next.forfeit(a)
	default:
		err = fmt.Errorf("%w: kind %d", ErrBadAction, a.Kind)
	}
	if err != nil {
		return g, nil, err
	}
	return next, events, nil
}

// deal shuffles from the action's seed and deals, one card at a time from
// the dealer's left; with three players one card goes to the crib.
func (g *State) deal(a Action) ([]Event, error) {
	switch {
	case g.Phase != PhaseDeal:
		return nil, fmt.Errorf("%w: dealing in the %s", ErrWrongPhase, g.Phase)
	case a.Seat != g.Dealer:
		return nil, fmt.Errorf("%w: seat %d deals", ErrNotYourTurn, g.Dealer)
	case a.Seed == nil:
		return nil, fmt.Errorf("%w: a deal needs a seed", ErrBadAction)
	}
	n := g.Options.Players
	if g.HandNo > 0 {
		last := &LastHand{HandNo: g.HandNo, Dealer: (g.Dealer + n - 1) % n, Starter: g.Starter, Discards: slices.Clone(g.Discards)}
		for seat := range n {
			last.Dealt = append(last.Dealt, g.Hands[seat]|g.Discards[seat])
		}
		g.Last = last
	}
	d := Deal(*a.Seed, n)
	for i := range n {
		seat := (g.Dealer + 1 + i) % n
		g.Hands[seat], g.Discards[seat], g.Played[seat] = d.Hands[i], 0, 0
	}
	seed := *a.Seed
	g.DealSeed = &seed
	g.Crib, g.Starter, g.Stock = d.Crib, d.Starter, d.Stock
	g.StarterUp = false
	g.Phase = PhaseDiscard
	g.HandNo++
	g.Count, g.Plays, g.SeriesStart, g.SaidGo, g.Shown, g.Missed = 0, nil, 0, 0, 0, nil
	g.Turn = g.left(g.Dealer)
	return []Event{{Kind: EvDeal, Seat: g.Dealer, N: g.HandNo, Commitment: seed.Commitment()}}, nil
}

// discard moves a seat's throw to the crib; when every seat has thrown, the
// starter is turned and the play begins.
func (g *State) discard(a Action) ([]Event, error) {
	if g.Phase != PhaseDiscard {
		return nil, fmt.Errorf("%w: discarding in the %s", ErrWrongPhase, g.Phase)
	}
	if g.Discards[a.Seat] != 0 {
		return nil, fmt.Errorf("%w: seat %d has discarded", ErrAlreadyDone, a.Seat)
	}
	want := g.Options.DiscardSize()
	if len(a.Cards) != want {
		return nil, fmt.Errorf("%w: throw %d to the crib, not %d", ErrWrongCardCount, want, len(a.Cards))
	}
	throw := SetOf(a.Cards...)
	for _, c := range a.Cards {
		if !c.Valid() || !g.Hands[a.Seat].Has(c) {
			return nil, fmt.Errorf("%w: %s", ErrCardNotInHand, c)
		}
	}
	if throw.Len() != want {
		return nil, fmt.Errorf("%w: the same card twice", ErrWrongCardCount)
	}
	g.Hands[a.Seat] &^= throw
	g.Discards[a.Seat] = throw
	g.Crib |= throw
	events := []Event{{Kind: EvDiscard, Seat: a.Seat, N: want}}
	for _, d := range g.Discards {
		if d == 0 {
			return events, nil
		}
	}
	return g.turnStarter(events), nil
}

// turnStarter turns the starter after the last discard; a jack pegs the
// dealer 2 for his heels at once, which can win the game (RULES.md "The cut").
func (g *State) turnStarter(events []Event) []Event {
	g.StarterUp = true
	events = append(events, Event{Kind: EvStarter, Seat: g.left(g.Dealer), Card: g.Starter})
	if g.Starter.Rank() == Jack {
		items := []ScoreItem{{Kind: KindHeels, Cards: []Card{g.Starter}, Points: 2}}
		g.Tally[g.Dealer].Pegging += 2
		events = g.award(events, Event{Kind: EvHeels, Seat: g.Dealer, Card: g.Starter, Items: items, Points: 2})
		if g.Phase == PhaseOver {
			return events
		}
	}
	g.Phase = PhasePlay
	g.Turn = g.left(g.Dealer)
	return events
}

// award pegs ev.Points to ev.Seat's side, records the scores on the event
// and appends it, then ends the game if the side reached the target.
func (g *State) award(events []Event, ev Event) []Event {
	side := g.sideOf(ev.Seat)
	if len(g.Back) != len(g.Scores) {
		g.Back = make([]int, len(g.Scores)) // a game saved before back pegs were kept
	}
	g.Back[side] = g.Scores[side]
	g.Scores[side] += ev.Points
	ev.Scores = slices.Clone(g.Scores)
	events = append(events, ev)
	if g.Scores[side] >= g.Options.Target {
		events = g.finish(events, side, -1, ReasonTarget)
	}
	return events
}

// finish ends the game with winner as the winning side.
func (g *State) finish(events []Event, winner, loser int, reason ResultReason) []Event {
	r := &Result{
		Reason: reason,
		Winner: winner,
		Loser:  loser,
		Scores: slices.Clone(g.Scores),
		Skunks: make([]int, len(g.Scores)),
		Games:  1,
	}
	if reason == ReasonTarget {
		// RULES.md "Winning": the skunk lines apply to each loser; the
		// win is worth the deepest one.
		for side, score := range g.Scores {
			if side == winner {
				continue
			}
			r.Skunks[side] = SkunkLevel(score, g.Options.Target)
			r.Games = max(r.Games, gamesFor(r.Skunks[side]))
		}
	}
	g.Result = r
	g.Phase = PhaseOver
	// A game over ends the hand too, shown or not: its seed is revealed.
	return append(events, Event{Kind: EvGameOver, Seat: winner, N: g.HandNo, Seed: g.DealSeed, Result: r, Scores: slices.Clone(g.Scores)})
}

// SkunkLevel returns 0, 1 (skunk) or 2 (double skunk) for a loser's score:
// 90 or fewer is a skunk and 60 or fewer a double skunk in the 121-point
// game; the 61-point game has only the skunk line, 30 or fewer.
func SkunkLevel(score, target int) int {
	if target == 61 {
		if score <= 30 {
			return 1
		}
		return 0
	}
	switch {
	case score <= 60:
		return 2
	case score <= 90:
		return 1
	}
	return 0
}

// gamesFor returns what a win is worth at a skunk level: 1, 2 or 4 games.
func gamesFor(level int) int { return [3]int{1, 2, 4}[level] }

// resign ends the game as a loss for the seat's side. With more than two
// sides the leader among the others wins (ties: the nearest to the
// resigner's left). A resignation is worth one game and never a skunk.
func (g *State) resign(a Action) ([]Event, error) {
	events := []Event{{Kind: EvResign, Seat: a.Seat}}
	loser := g.sideOf(a.Seat)
	return g.finish(events, g.leaderExcept(a.Seat), loser, ReasonResigned), nil
}

// forfeit ends the game in favour of the caller's side because seat Other
// did not move in time. Whether enough time has passed is the caller's
// business (the engine has no clock); the engine checks that Other is an
// opponent who has to act, and that nobody on the claimer's side has to
// act too: a side that keeps the table waiting itself cannot win because
// another side is late as well. A forfeit is worth one game, never a skunk.
func (g *State) forfeit(a Action) ([]Event, error) {
	if a.Other < 0 || a.Other >= g.Options.Players || g.sideOf(a.Other) == g.sideOf(a.Seat) {
		return nil, fmt.Errorf("%w: seat %d cannot forfeit seat %d", ErrNotOpponent, a.Seat, a.Other)
	}
	waiting := g.Waiting()
	if !slices.Contains(waiting, a.Other) {
		return nil, fmt.Errorf("%w: seat %d is not the one to move", ErrNotYourTurn, a.Other)
	}
	for _, w := range waiting {
		if g.sideOf(w) == g.sideOf(a.Seat) {
			return nil, fmt.Errorf("%w: seat %d's side has still to move (seat %d)", ErrClaimerWaited, a.Seat, w)
		}
	}
	return g.finish(nil, g.sideOf(a.Seat), g.sideOf(a.Other), ReasonForfeit), nil
}

// leaderExcept returns the leading side other than seat's, the nearest to
// seat's left on a tie.
func (g *State) leaderExcept(seat int) int {
	own := g.sideOf(seat)
	best := -1
	for i := 1; i < g.Options.Players; i++ {
		side := g.sideOf((seat + i) % g.Options.Players)
		if side != own && (best < 0 || g.Scores[side] > g.Scores[best]) {
			best = side
		}
	}
	return best
}

// Waiting returns the seats the game is waiting for: the seats still to
// discard, the seat to play or count, or the dealer to deal.
func (g *State) Waiting() []int {
	switch g.Phase {
	case PhaseDiscard:
		var seats []int
		for seat, d := range g.Discards {
			if d == 0 {
				seats = append(seats, seat)
			}
		}
		return seats
	case PhaseDeal, PhasePlay, PhaseShow:
		return []int{g.Turn}
	}
	return nil
}
