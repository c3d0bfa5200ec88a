package cribbage

import "time"

// A lobby's changes: people take and give up seats, and the host starts
// the game. A lobby that fills starts its game in the same change (Start,
// in move.go), so the last seat taken and the first deal are saved
// together.

// Join seats person s at lobby t; the seat that fills the table starts
// the game. It fails with ErrNotLobby once the game is on, ErrAlreadySeated
// for someone seated, ErrSeatHeld at a challenge for anyone but the person
// challenged, and ErrTableFull when no seat is free.
func Join(t *Table, s Seat, env Env) (*Change, error) {
	switch {
	case t.Status != StatusLobby:
		return nil, ErrNotLobby
	case t.SeatOf(s.UserID) >= 0:
		return nil, ErrAlreadySeated
	case t.Challenge != nil && t.Challenge.UserID != s.UserID:
		return nil, ErrSeatHeld
	case len(t.Seats) >= t.Options.Players:
		return nil, ErrTableFull
	}
	t.Seats = append(t.Seats, s)
	if t.Challenge != nil {
		t.Challenge.Outcome = ChallengeAccepted // the held seat taken
	}
	if len(t.Seats) == t.Options.Players {
		ch, _, err := Start(t, env)
		return ch, err
	}
	return &Change{Table: t}, nil
}

// Leave gives up userID's seat at lobby t. The last person to leave closes
// the table; a host who leaves passes the table to the first seat. A
// challenger who leaves withdraws the challenge.
func Leave(t *Table, userID string) (*Change, error) {
	if t.Status != StatusLobby {
		return nil, ErrNotLobby
	}
	if t.Challenge != nil && t.HostID == userID {
		return WithdrawChallenge(t, userID)
	}
	seat := t.SeatOf(userID)
	if seat < 0 {
		return nil, ErrNotSeated
	}
	t.Seats = append(t.Seats[:seat], t.Seats[seat+1:]...)
	if len(t.Seats) == 0 {
		t.Status = StatusClosed
	} else if t.HostID == userID {
		t.HostID = t.Seats[0].UserID
	}
	return &Change{Table: t}, nil
}

// Begin is the host's start: computer players of the table's level take
// the empty seats (named by env.Computers) and the game starts. Only the
// host may begin (ErrNotHost), and a table without computers only once its
// seats are taken (ErrNeedPlayers: it starts by itself then).
func Begin(t *Table, userID string, env Env) (*Change, error) {
	switch {
	case t.Status != StatusLobby:
		return nil, ErrNotLobby
	case t.HostID != userID:
		return nil, ErrNotHost
	case len(t.Seats) < t.Options.Players && t.Computer == "":
		return nil, ErrNeedPlayers
	}
	for len(t.Seats) < t.Options.Players {
		t.Seats = append(t.Seats, Seat{Computer: t.Computer, Name: env.Computers.Name(t.Computer, len(t.Seats))})
	}
	ch, _, err := Start(t, env)
	return ch, err
}

// LobbyLife is how long a lobby nobody starts stays open, and a
// challenge nobody answers stands: a day, long enough for everyone asked
// to see it whatever their time zone, short enough that a channel is not
// left with stale tables.
const LobbyLife = 24 * time.Hour

// LobbyLapses returns when lobby t closes if nobody starts it.
func (t *Table) LobbyLapses() time.Time { return t.CreatedAt.Add(LobbyLife) }

// CloseLobby closes a lobby nobody started within LobbyLife of now (a
// challenge nobody answered lapses); a table past its lobby, or a lobby
// younger than that, is left alone (a nil change).
func CloseLobby(t *Table, now time.Time) *Change {
	if t.Status != StatusLobby || now.Before(t.LobbyLapses()) {
		return nil
	}
	if t.Challenge != nil {
		t.Challenge.Outcome = ChallengeLapsed
	}
	t.Status = StatusClosed
	return &Change{Table: t}
}
