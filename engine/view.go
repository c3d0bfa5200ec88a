package engine

// View is what one seat may know of a game: its own cards, everything laid
// face up, the scores, and hands and crib only once they are counted. The
// bot and every computer player see a game only through a View.
type View struct {
	Seat    int     `json:"seat"`
	Options Options `json:"options"`
	Phase   Phase   `json:"phase"`
	HandNo  int     `json:"hand_no"`
	Dealer  int     `json:"dealer"`
	Turn    int     `json:"turn"`
	Scores  []int   `json:"scores"`
	// Hand is the seat's own cards (played ones included); Remaining is
	// what it still holds in the play; Discards is what it threw.
	Hand      CardSet `json:"hand"`
	Remaining CardSet `json:"remaining"`
	Discards  CardSet `json:"discards"`
	// Starter is NoCard until it is turned.
	Starter Card   `json:"starter"`
	Count   int    `json:"count"`
	Plays   []Play `json:"plays"`
	// SeriesStart indexes Plays at the first card of the current series.
	SeriesStart int `json:"series_start"`
	// CardsLeft is how many cards each seat still holds; Discarded whether
	// each seat has thrown to the crib.
	CardsLeft []int  `json:"cards_left"`
	Discarded []bool `json:"discarded"`
	// Shown are the hands, and the crib, counted so far this hand.
	Shown []Shown `json:"shown"`
	// Crib is the crib's cards when this seat is the dealer about to count
	// it by hand; otherwise empty until it is shown.
	Crib   CardSet `json:"crib,omitempty"`
	Missed []Miss  `json:"missed,omitempty"`
	// Legal are the cards the seat may lay now.
	// LastDealt and LastDiscards are this seat's cards in the previous
	// hand, with its starter and dealer, once a new hand is dealt.
	LastHandNo   int     `json:"last_hand_no,omitempty"`
	LastDealer   int     `json:"last_dealer,omitempty"`
	LastStarter  Card    `json:"last_starter,omitempty"`
	LastDealt    CardSet `json:"last_dealt,omitempty"`
	LastDiscards CardSet `json:"last_discards,omitempty"`
	Legal        []Card  `json:"legal"`
	Waiting      []int   `json:"waiting"`
	Tally        Tally   `json:"tally"`
	Result       *Result `json:"result,omitempty"`
}

// Shown is a hand or crib laid open in the show.
type Shown struct {
	Seat  int     `json:"seat"`
	Crib  bool    `json:"crib,omitempty"`
	Cards CardSet `json:"cards"`
}

// ViewFor returns what seat may know of the game.
func (g *State) ViewFor(seat int) View {
	n := g.Options.Players
	v := View{
		Seat:        seat,
		Options:     g.Options,
		Phase:       g.Phase,
		HandNo:      g.HandNo,
		Dealer:      g.Dealer,
		Turn:        g.Turn,
		Scores:      append([]int(nil), g.Scores...),
		Hand:        g.Hands[seat],
		Remaining:   g.Remaining(seat),
		Discards:    g.Discards[seat],
		Count:       g.Count,
		Plays:       append([]Play(nil), g.Plays...),
		SeriesStart: g.SeriesStart,
		CardsLeft:   make([]int, n),
		Discarded:   make([]bool, n),
		Missed:      append([]Miss(nil), g.Missed...),
		Legal:       g.LegalPlays(seat),
		Waiting:     g.Waiting(),
		Tally:       g.Tally[seat],
		Result:      g.Result,
	}
	if g.StarterUp {
		v.Starter = g.Starter
	}
	if l := g.Last; l != nil {
		v.LastHandNo, v.LastDealer, v.LastStarter = l.HandNo, l.Dealer, l.Starter
		v.LastDealt, v.LastDiscards = l.Dealt[seat], l.Discards[seat]
	}
	if s, crib := g.ShowOrder(g.Shown); g.Phase == PhaseShow && crib && s == seat {
		v.Crib = g.Crib
	}
	for s := range n {
		v.CardsLeft[s] = g.Remaining(s).Len()
		v.Discarded[s] = g.Discards[s] != 0
	}
	for i := 0; i < g.Shown; i++ {
		s, crib := g.ShowOrder(i)
		v.Shown = append(v.Shown, Shown{Seat: s, Crib: crib, Cards: SetOf(g.showCards(s, crib)...)})
	}
	return v
}

// Series returns the cards of the current series, in the order laid.
func (v View) Series() []Card { return seriesOf(v.Plays, v.SeriesStart) }

// Unseen returns the cards this seat has not seen: the deck less its own
// hand and discards, the starter, and every card laid or shown.
func (v View) Unseen() CardSet {
	seen := v.Hand | v.Discards
	if v.Starter != NoCard {
		seen = seen.Add(v.Starter)
	}
	for _, p := range v.Plays {
		seen = seen.Add(p.Card)
	}
	for _, s := range v.Shown {
		seen |= s.Cards
	}
	return FullDeck &^ seen
}

// NextToPlay is the next seat to the left of the viewer still holding
// cards in the play, or -1 if none does (RULES.md "The play": play passes
// to the left, skipping players out of cards).
func (v View) NextToPlay() int {
	n := v.Options.Players
	for i := 1; i < n; i++ {
		if s := (v.Seat + i) % n; v.CardsLeft[s] > 0 {
			return s
		}
	}
	return -1
}
