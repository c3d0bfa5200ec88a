package cribbage

import (
	"slices"
	"time"
)

// A finished table's next game: a rematch the players agree to, or the
// next game of a match, which starts by itself. Either is a new table
// seated as the last, made in the same transaction as the change that
// calls for it (Change.Next), so a table has one next game whoever asks
// and whatever races them. It is made begun, not played: its computer
// players move after that transaction (Continue).

// OfferLife is how long a rematch offer stands unanswered before it
// lapses: a day, as long as a lobby nobody starts.
const OfferLife = LobbyLife

// RematchOffer is a finished table's open offer of a rematch: who made
// it, when, and who has accepted it (whoever made it among them). Once
// every person at the table has accepted, the rematch starts; computer
// players accept by themselves.
type RematchOffer struct {
	By       string    `json:"by"`
	At       time.Time `json:"at"`
	Accepted []string  `json:"accepted"`
}

// Waiting returns the people at t who have still to accept its offer.
func (o *RematchOffer) Waiting(t *Table) []Seat {
	var out []Seat
	for _, s := range t.Seats {
		if s.Computer == "" && !slices.Contains(o.Accepted, s.UserID) {
			out = append(out, s)
		}
	}
	return out
}

// AwaitsAnswer reports whether t waits on userID's answer: it is an open
// challenge to them, or a finished table whose open rematch offer they
// have still to accept.
func (t *Table) AwaitsAnswer(userID string) bool {
	if c := t.Challenge; c != nil && t.Status == StatusLobby && c.Outcome == "" && c.UserID == userID {
		return true
	}
	if t.Offer == nil || t.RematchID != 0 || t.Status != StatusFinished {
		return false
	}
	return slices.ContainsFunc(t.Offer.Waiting(t), func(s Seat) bool { return s.UserID == userID })
}

// OfferRematch is a player's Rematch at a finished table: an offer to the
// others, or their acceptance of an offer already made (two players who
// press Rematch at once agree). At a table with no other person the
// rematch starts at once.
func OfferRematch(t *Table, userID string, env Env) (*Change, error) {
	if err := mayRematch(t, userID); err != nil {
		return nil, err
	}
	if t.Offer != nil {
		return AcceptRematch(t, userID, env)
	}
	t.Offer = &RematchOffer{By: userID, At: env.Now, Accepted: []string{userID}}
	return agreed(t, env)
}

// AcceptRematch is a player's yes to the table's rematch offer; the last
// yes starts the rematch. It fails with ErrNoOffer when no offer is open
// and ErrAlreadyAccepted for a second yes.
func AcceptRematch(t *Table, userID string, env Env) (*Change, error) {
	if err := mayRematch(t, userID); err != nil {
		return nil, err
	}
	switch {
	case t.Offer == nil:
		return nil, ErrNoOffer
	case slices.Contains(t.Offer.Accepted, userID):
		return nil, ErrAlreadyAccepted
	}
	t.Offer.Accepted = append(t.Offer.Accepted, userID)
	return agreed(t, env)
}

// DeclineRematch is a player's no to the table's rematch offer (or the
// one who made it taking it back): the offer is gone, and anyone at the
// table may make another.
func DeclineRematch(t *Table, userID string) (*Change, error) {
	if err := mayRematch(t, userID); err != nil {
		return nil, err
	}
	if t.Offer == nil {
		return nil, ErrNoOffer
	}
	t.Offer = nil
	return &Change{Table: t}, nil
}

// LapseOffer withdraws an offer that has stood OfferLife at now without
// every yes; a table with no such offer is left alone (a nil change).
func LapseOffer(t *Table, now time.Time) *Change {
	if t.Offer == nil || t.RematchID != 0 || now.Sub(t.Offer.At) < OfferLife {
		return nil
	}
	t.Offer = nil
	return &Change{Table: t}
}

// agreed is the change an offer or a yes makes: the offer as it now
// stands, and the rematch with it once nobody is left to accept.
func agreed(t *Table, env Env) (*Change, error) {
	ch := &Change{Table: t}
	if len(t.Offer.Waiting(t)) == 0 {
		next, err := startNext(t, t.Offer.By, env)
		if err != nil {
			return nil, err
		}
		ch.Next = next
	}
	return ch, nil
}

// mayRematch refuses a rematch by someone who did not play, of a game
// still on, of a table that has its rematch, and of a match's game while
// the match goes on (its next game starts by itself).
func mayRematch(t *Table, userID string) error {
	switch {
	case t.SeatOf(userID) < 0:
		return ErrNotSeated
	case t.Status != StatusFinished:
		return ErrNotFinished
	case t.Match != nil && !t.Match.Over():
		return ErrMatchOn
	case t.Tournament != nil:
		return ErrTournamentGame
	case t.RematchID != 0:
		return ErrRematched
	}
	return nil
}

// startNext begins the table after prev, hosted by host: the same seats,
// options and colours, and its game started with the deal passed on
// (StartRematch). A match still on goes on to its next game; after a
// finished match a rematch is a new match of the same length, and after a
// single game a single game. The new table has no id until the store
// saves it; the change's Follows is prev, for the caller's words.
func startNext(prev *Table, host string, env Env) (*Change, error) {
	next := &Table{GuildID: prev.GuildID, ChannelID: prev.ChannelID, Locale: prev.Locale, HostID: host,
		Options: prev.Options, Computer: prev.Computer, FourColour: prev.FourColour, TokenOnly: prev.TokenOnly, Seats: slices.Clone(prev.Seats)}
	switch {
	case prev.Match != nil && !prev.Match.Over():
		next.Match = prev.Match.next()
	case prev.Match != nil:
		// A new match, known by its first game once that is saved
		// (AssignID).
		next.Match = &Match{BestOf: prev.Match.BestOf, Game: 1}
	}
	if prev.Tournament != nil && prev.Match != nil && !prev.Match.Over() {
		// A playoff match's next game is the tournament's too.
		l := *prev.Tournament
		l.Game++
		next.Tournament = &l
	}
	ch, _, err := StartRematch(prev, next, env)
	if err != nil {
		return nil, err
	}
	ch.Follows = prev
	return ch, nil
}
