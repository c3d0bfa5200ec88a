package engine

import (
	"fmt"
	"slices"
)

// FormatVersion is the version of State's JSON form. Unmarshal refuses a
// state from a newer version.
const FormatVersion = 1

// Options are a table's rules, fixed when the game starts.
type Options struct {
	// Players is 2, 3 or 4.
	Players int `json:"players"`
	// Partners, with 4 players, makes seats 0 and 2 one side and 1 and 3
	// the other, each sharing one score.
	Partners bool `json:"partners,omitempty"`
	// Target is 121, or 61 for the short game.
	Target int `json:"target"`
	// ManualCounting makes each player claim their own show points.
	ManualCounting bool `json:"manual_counting,omitempty"`
	// Muggins, with manual counting, lets opponents take missed points.
	Muggins bool `json:"muggins,omitempty"`
}

// Validate reports whether the options describe a table RULES.md allows.
func (o Options) Validate() error {
	switch {
	case o.Players < 2 || o.Players > 4:
		return fmt.Errorf("%w: %d players (2, 3 or 4)", ErrBadOptions, o.Players)
	case o.Partners && o.Players != 4:
		return fmt.Errorf("%w: partnerships need 4 players", ErrBadOptions)
	case o.Target != 121 && o.Target != 61:
		return fmt.Errorf("%w: target %d (121 or 61)", ErrBadOptions, o.Target)
	case o.Muggins && !o.ManualCounting:
		return fmt.Errorf("%w: muggins needs manual counting", ErrBadOptions)
	}
	return nil
}

// Sides returns how many scores the table keeps: one a player, or two for
// partnerships.
func (o Options) Sides() int {
	if o.Partners {
		return 2
	}
	return o.Players
}

// SideOf returns the side seat plays for. Partners sit opposite, so seats 0
// and 2 are side 0 and seats 1 and 3 side 1.
func (o Options) SideOf(seat int) int { return seat % o.Sides() }

// HandSize returns how many cards each player is dealt (RULES.md "Tables").
func (o Options) HandSize() int {
	if o.Players == 2 {
		return 6
	}
	return 5
}

// DiscardSize returns how many cards each player throws to the crib.
func (o Options) DiscardSize() int { return o.HandSize() - 4 }

// Phase is where a hand stands.
type Phase uint8

// The phases of a game.
const (
	PhaseDeal    Phase = iota + 1 // waiting for the dealer to deal
	PhaseDiscard                  // players are throwing to the crib
	PhasePlay                     // the play (pegging)
	PhaseShow                     // manual counting: players claim their counts
	PhaseOver                     // the game is finished
)

var phaseNames = map[Phase]string{PhaseDeal: "deal", PhaseDiscard: "discard", PhasePlay: "play", PhaseShow: "show", PhaseOver: "over"}

// String returns the name.
func (p Phase) String() string { return nameOf(phaseNames, p) }

// MarshalText writes the phase's name.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a name.
func (p *Phase) UnmarshalText(b []byte) error { return parseName(phaseNames, b, p, ErrBadState) }

// Play is one card laid in the play.
type Play struct {
	Seat int  `json:"seat"`
	Card Card `json:"card"`
}

// Miss is show points a claimer left uncounted, which opponents may take
// with muggins until the next deal.
type Miss struct {
	Seat   int  `json:"seat"`
	Crib   bool `json:"crib,omitempty"`
	Points int  `json:"points"`
	Taken  bool `json:"taken,omitempty"`
}

// Tally adds up one seat's scoring over the game, for records.
type Tally struct {
	Pegging    int `json:"pegging"`     // points pegged in the play, heels included
	HandPoints int `json:"hand_points"` // points from their own hands
	Hands      int `json:"hands"`       // hands counted
	CribPoints int `json:"crib_points"` // points from their cribs
	Cribs      int `json:"cribs"`       // cribs counted
	BestHand   int `json:"best_hand"`   // the best hand or crib they counted
	TwentyNine int `json:"twenty_nine"` // 29-point hands and cribs
}

// State is a whole game as plain data. Apply never changes a State; it
// returns a new one.
type State struct {
	Format  int     `json:"format"`
	Options Options `json:"options"`
	Phase   Phase   `json:"phase"`
	// HandNo counts the hands dealt so far.
	HandNo int `json:"hand_no"`
	Dealer int `json:"dealer"`
	// Turn is the seat to act: to play in the play, to count in a manual
	// show, to deal in the deal phase.
	Turn int `json:"turn"`
	// Scores holds one score a side; Back holds each side's score before
	// its last scoring move, where its back peg stands on the board.
	Scores []int `json:"scores"`
	Back   []int `json:"back,omitempty"`
	// DealSeed is the seed the current hand was dealt from: secret (never
	// in a View) until the hand is over.
	DealSeed *Seed `json:"deal_seed,omitempty"`
	// Hands holds each seat's cards: as dealt, then the four kept. Cards
	// stay in Hands when played (they are counted in the show).
	Hands    []CardSet `json:"hands"`
	Discards []CardSet `json:"discards"`
	Played   []CardSet `json:"played"`
	Crib     CardSet   `json:"crib"`
	// Stock is the rest of the deck, face down.
	Stock   CardSet `json:"stock"`
	Starter Card    `json:"starter"`
	// StarterUp is set once the starter is turned.
	StarterUp bool `json:"starter_up,omitempty"`
	// Count is the running count of the current series.
	Count int `json:"count"`
	// Plays are the cards laid this hand, in order; SeriesStart indexes the
	// first of the current series.
	Plays       []Play `json:"plays"`
	SeriesStart int    `json:"series_start"`
	// SaidGo has bit s set when seat s has said go in this series.
	SaidGo uint8 `json:"said_go,omitempty"`
	// Shown counts the show's counts done this hand: the hands in order
	// from the dealer's left, then the crib (Players+1 when all are done).
	Shown  int     `json:"shown"`
	Missed []Miss  `json:"missed,omitempty"`
	Tally  []Tally `json:"tally"`
	Result *Result `json:"result,omitempty"`
	// Last is the previous hand as dealt, kept for looking back at it
	// (a player reviewing their discard) after the next deal.
	Last *LastHand `json:"last,omitempty"`
}

// LastHand is a hand as it was dealt.
type LastHand struct {
	HandNo   int       `json:"hand_no"`
	Dealer   int       `json:"dealer"`
	Starter  Card      `json:"starter"`
	Dealt    []CardSet `json:"dealt"`
	Discards []CardSet `json:"discards"`
}

// ResultReason says how a game ended.
type ResultReason string

// The ways a game ends.
const (
	ReasonTarget   ResultReason = "target"   // a side reached the target
	ReasonResigned ResultReason = "resigned" // a player resigned
	ReasonForfeit  ResultReason = "forfeit"  // a player did not move in time and the win was claimed
)

// Result is how a finished game came out.
type Result struct {
	Reason ResultReason `json:"reason"`
	// Winner is the winning side.
	Winner int `json:"winner"`
	// Loser is the side that resigned or forfeited, or -1.
	Loser  int   `json:"loser"`
	Scores []int `json:"scores"`
	// Skunks holds, a side, 0 for none, 1 for a skunk, 2 for a double skunk
	// (always 0 for the winner).
	Skunks []int `json:"skunks"`
	// Games is what the win is worth: 1, 2 for a skunk, 4 for a double skunk.
	Games int `json:"games"`
}

// New starts a game: the players cut for deal from seed and the lowest card
// deals (ace low; ties cut again, RULES.md "Tables"). The game then waits
// for the dealer's Deal.
func New(opts Options, seed Seed) (*State, []Event, error) {
	if err := opts.Validate(); err != nil {
		return nil, nil, err
	}
	n := opts.Players
	g := &State{
		Format:   FormatVersion,
		Options:  opts,
		Phase:    PhaseDeal,
		Scores:   make([]int, opts.Sides()),
		Hands:    make([]CardSet, n),
		Discards: make([]CardSet, n),
		Played:   make([]CardSet, n),
		Stock:    FullDeck,
		Tally:    make([]Tally, n),
	}
	deck := Shuffle(seed)
	var cuts []Card
	contenders := make([]int, n)
	for i := range contenders {
		contenders[i] = i
	}
	next := 0
	for len(contenders) > 1 {
		low := King + 1
		var lowest []int
		for _, seat := range contenders {
			c := deck[next]
			next++
			cuts = append(cuts, c)
			switch {
			case c.Rank() < low:
				low, lowest = c.Rank(), []int{seat}
			case c.Rank() == low:
				lowest = append(lowest, seat)
			}
		}
		contenders = lowest
	}
	g.Dealer, g.Turn = contenders[0], contenders[0]
	return g, []Event{{Kind: EvCutForDeal, Seat: g.Dealer, Cards: cuts}}, nil
}

// Rematch starts a new game with prev's table and options. The deal passes
// on: the player to the left of prev's last dealer deals first, with no
// cut.
func Rematch(prev *State) (*State, error) {
	return NewWithDealer(prev.Options, (prev.Dealer+1)%prev.Options.Players)
}

// NewWithDealer starts a game without a cut: dealer deals first. A rematch
// starts so, and so does the replay of one.
func NewWithDealer(opts Options, dealer int) (*State, error) {
	g, _, err := New(opts, Seed{})
	if err != nil {
		return nil, err
	}
	if dealer < 0 || dealer >= opts.Players {
		return nil, fmt.Errorf("%w: seat %d deals at %d players", ErrBadAction, dealer, opts.Players)
	}
	g.Dealer = dealer
	g.Turn = g.Dealer
	return g, nil
}

// Clone returns a deep copy of the state.
func (g *State) Clone() *State {
	c := *g
	c.Scores = slices.Clone(g.Scores)
	c.Back = slices.Clone(g.Back)
	c.Hands = slices.Clone(g.Hands)
	c.Discards = slices.Clone(g.Discards)
	c.Played = slices.Clone(g.Played)
	c.Plays = slices.Clone(g.Plays)
	c.Missed = slices.Clone(g.Missed)
	c.Tally = slices.Clone(g.Tally)
	if g.Last != nil {
		l := *g.Last
		l.Dealt, l.Discards = slices.Clone(l.Dealt), slices.Clone(l.Discards)
		c.Last = &l
	}
	if g.Result != nil {
		r := *g.Result
		r.Scores = slices.Clone(r.Scores)
		r.Skunks = slices.Clone(r.Skunks)
		c.Result = &r
	}
	return &c
}

// left returns the seat to the left of seat (clockwise).
func (g *State) left(seat int) int { return (seat + 1) % g.Options.Players }

// sideOf returns the side seat plays for.
func (g *State) sideOf(seat int) int { return g.Options.SideOf(seat) }

// Remaining returns the cards seat still holds in the play.
func (g *State) Remaining(seat int) CardSet { return g.Hands[seat] &^ g.Played[seat] }

// Series returns the cards of the current series, in the order laid.
func (g *State) Series() []Card { return seriesOf(g.Plays, g.SeriesStart) }

// seriesOf returns the cards of plays from start on.
func seriesOf(plays []Play, start int) []Card {
	out := make([]Card, 0, len(plays)-start)
	for _, p := range plays[start:] {
		out = append(out, p.Card)
	}
	return out
}

// ShowOrder returns the seat whose count is i-th in the show: the dealer's
// left first, clockwise, the dealer last, then (i == Players) the dealer's
// crib (RULES.md "The show").
func (g *State) ShowOrder(i int) (seat int, crib bool) {
	n := g.Options.Players
	if i >= n {
		return g.Dealer, true
	}
	return (g.Dealer + 1 + i) % n, false
}

// Cut is one seat's card in the cut for deal.
type Cut struct {
	Seat int
	Card Card
}

// CutRounds splits the cards of an EvCutForDeal event into its rounds: every
// seat cuts in the first, and only the seats tied for lowest cut again in
// each round after (RULES.md "First dealer": ties re-cut).
func CutRounds(players int, cards []Card) [][]Cut {
	contenders := make([]int, players)
	for i := range contenders {
		contenders[i] = i
	}
	var rounds [][]Cut
	next := 0
	for len(contenders) > 1 && next+len(contenders) <= len(cards) {
		low := King + 1
		var round []Cut
		var lowest []int
		for _, seat := range contenders {
			c := cards[next]
			next++
			round = append(round, Cut{Seat: seat, Card: c})
			switch {
			case c.Rank() < low:
				low, lowest = c.Rank(), []int{seat}
			case c.Rank() == low:
				lowest = append(lowest, seat)
			}
		}
		rounds = append(rounds, round)
		contenders = lowest
	}
	return rounds
}
