package engine

// EventKind names what happened.
type EventKind uint8

// The kinds of event Apply reports, in the order they can happen in a hand.
const (
	EvCutForDeal EventKind = iota + 1 // Cards: one cut a seat, in rounds; Seat: the first dealer
	EvDeal                            // Seat: the dealer; N: the hand number; Commitment: to its seed
	EvDiscard                         // Seat threw N cards to the crib (the cards stay hidden)
	EvStarter                         // Card: the starter, turned by Seat (the dealer's left)
	EvHeels                           // Seat (the dealer) pegs 2 for a jack turned
	EvPlay                            // Seat laid Card; Count after it; Items and Points it scored
	EvGo                              // Seat could not play
	EvGoPoint                         // Seat pegs 1 for the go (Items)
	EvLastCard                        // Seat pegs 1 for the last card (Items)
	EvReset                           // the count goes back to 0; Seat leads next
	EvShow                            // Seat's hand (Crib: the crib) is counted: Cards, Card (starter), Items, Points
	EvClaim                           // manual counting: Seat claimed Claimed; Points pegged; Missed left for muggins
	EvMuggins                         // Seat takes Points missed by Other
	EvHandOver                        // hand N is done; Seat deals next; Seed: hand N's, revealed
	EvResign                          // Seat resigned
	EvGameOver                        // Result is final; Seed: hand N's, revealed (nil before a deal)
)

var eventNames = map[EventKind]string{
	EvCutForDeal: "cut-for-deal", EvDeal: "deal", EvDiscard: "discard", EvStarter: "starter",
	EvHeels: "heels", EvPlay: "play", EvGo: "go", EvGoPoint: "go-point", EvLastCard: "last-card",
	EvReset: "reset", EvShow: "show", EvClaim: "claim", EvMuggins: "muggins",
	EvHandOver: "hand-over", EvResign: "resign", EvGameOver: "game-over",
}

// String returns the name.
func (k EventKind) String() string { return nameOf(eventNames, k) }

// MarshalText writes the kind's name.
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a name.
func (k *EventKind) UnmarshalText(b []byte) error { return parseName(eventNames, b, k, ErrBadState) }

// Event is one thing that happened, for the bot to announce. Events are
// public: an event never holds a card that is still hidden in a hand (a
// discard reports how many cards, not which).
type Event struct {
	Kind    EventKind   `json:"kind"`
	Seat    int         `json:"seat"`
	Other   int         `json:"other,omitempty"`
	Card    Card        `json:"card,omitempty"`
	Cards   []Card      `json:"cards,omitempty"`
	Count   int         `json:"count,omitempty"`
	N       int         `json:"n,omitempty"`
	Crib    bool        `json:"crib,omitempty"`
	Claimed int         `json:"claimed,omitempty"`
	Missed  int         `json:"missed,omitempty"`
	Items   []ScoreItem `json:"items,omitempty"`
	Points  int         `json:"points,omitempty"`
	// Scores are every side's scores after the event, on scoring events.
	Scores []int   `json:"scores,omitempty"`
	Result *Result `json:"result,omitempty"`
	// Commitment is the SHA-256 of a deal's seed (Seed.Commitment), and
	// Seed the seed itself once its hand is over: see engine/commit.go.
	Commitment string `json:"commitment,omitempty"`
	Seed       *Seed  `json:"seed,omitempty"`
}
