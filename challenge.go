package cribbage

import "github.com/cribbage-bot/cribbage/engine"

// A challenge is a lobby with its second seat held for one person: they
// accept (and the game starts) or decline; the challenger may withdraw it,
// and a challenge nobody answers lapses as any unstarted lobby does
// (CloseLobby). The bot words it and finds the timers; the rules of it
// are here.

// ChallengeOutcome is how a challenge ended, or "" while it is open.
type ChallengeOutcome string

// The outcomes of a challenge.
const (
	ChallengeAccepted  ChallengeOutcome = "accepted"
	ChallengeDeclined  ChallengeOutcome = "declined"
	ChallengeWithdrawn ChallengeOutcome = "withdrawn"
	ChallengeLapsed    ChallengeOutcome = "lapsed"
)

// Challenge is the person a challenge's held seat is for.
type Challenge struct {
	UserID  string           `json:"user_id"`
	Name    string           `json:"name"`
	Outcome ChallengeOutcome `json:"outcome,omitempty"`
}

// NewChallenge returns the lobby of host's challenge to opponent at a
// table of options o (two players: a challenge is one person's), in
// channel, as a best-of-bestOf match when bestOf is not 0. Nobody
// challenges themselves (ErrSelfChallenge).
func NewChallenge(guildID, channelID string, host, opponent Seat, o engine.Options, bestOf int) (*Table, error) {
	if host.UserID == opponent.UserID {
		return nil, ErrSelfChallenge
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if o.Players != 2 {
		return nil, ErrNotTwoPlayers
	}
	t := &Table{GuildID: guildID, ChannelID: channelID, HostID: host.UserID, Options: o, Status: StatusLobby,
		Seats: []Seat{host}, Challenge: &Challenge{UserID: opponent.UserID, Name: opponent.Name}}
	if bestOf != 0 {
		m, err := NewMatch(bestOf, o)
		if err != nil {
			return nil, err
		}
		t.Match = m
	}
	return t, nil
}

// OpenChallenge reports whether t is host's challenge to opponent, still
// waiting for an answer.
func (t *Table) OpenChallenge(host, opponent string) bool {
	return t.Status == StatusLobby && t.HostID == host && t.Challenge != nil && t.Challenge.UserID == opponent
}

// AcceptChallenge seats the challenged person, which starts the game. Only
// they may accept (ErrNotChallenged), and only an open challenge
// (ErrNotLobby).
func AcceptChallenge(t *Table, s Seat, env Env) (*Change, error) {
	if err := Answerable(t, s.UserID); err != nil {
		return nil, err
	}
	t.Challenge.Name = s.Name
	return Join(t, s, env)
}

// DeclineChallenge is the challenged person's no: the table closes.
func DeclineChallenge(t *Table, userID string) (*Change, error) {
	if err := Answerable(t, userID); err != nil {
		return nil, err
	}
	t.Challenge.Outcome, t.Status = ChallengeDeclined, StatusClosed
	return &Change{Table: t}, nil
}

// WithdrawChallenge is the challenger taking the challenge back: the
// table closes. Only the challenger may (ErrNotHost).
func WithdrawChallenge(t *Table, userID string) (*Change, error) {
	switch {
	case t.Challenge == nil:
		return nil, ErrNotChallenge
	case t.Status != StatusLobby:
		return nil, ErrNotLobby
	case t.HostID != userID:
		return nil, ErrNotHost
	}
	t.Challenge.Outcome, t.Status = ChallengeWithdrawn, StatusClosed
	return &Change{Table: t}, nil
}

// Answerable refuses an answer to a table that is no open challenge, or
// from someone else than the person challenged. AcceptChallenge and
// DeclineChallenge check it themselves; a caller may ask first, so that a
// refusal for another reason (a server's limit of open tables) does not
// hide this one.
func Answerable(t *Table, userID string) error {
	switch {
	case t.Challenge == nil:
		return ErrNotChallenge
	case t.Status != StatusLobby:
		return ErrNotLobby
	case t.Challenge.UserID != userID:
		return ErrNotChallenged
	}
	return nil
}
