package cribbage

import (
	"slices"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
)

// Status is where a table stands.
type Status string

// The statuses of a table.
const (
	StatusLobby    Status = "lobby"    // seats are filling
	StatusPlaying  Status = "playing"  // the game is on
	StatusFinished Status = "finished" // the game has a result
	StatusClosed   Status = "closed"   // closed without a game (an abandoned lobby)
	// StatusCancelled is a lobby or game an admin ended: no result, no
	// winner, nothing in the records.
	StatusCancelled Status = "cancelled"
)

// Open reports whether the table is still in use.
func (s Status) Open() bool { return s == StatusLobby || s == StatusPlaying }

// Seat is a place at a table: a person (UserID) or a computer player
// (Computer names its level).
type Seat struct {
	UserID   string
	Name     string
	Computer string
}

// Table is a cribbage table in a Discord channel and the game played there.
// What the bot knows of the table's messages on Discord is not the
// table's: it is a TableMessage, kept by the MessageBook.
type Table struct {
	ID        int64
	GuildID   string
	ChannelID string
	HostID    string
	// Locale is the Discord locale of the place the table was opened: the
	// server's guild_locale, or, at a table outside a server (a DM with
	// the bot, a group DM), its starter's locale. What the
	// channel sees of the table speaks it when the server's admins chose
	// no language (GuildSettings.Language). Written once, when the table
	// is made; "" for tables made before it was kept.
	Locale  string
	Options engine.Options
	// Computer is the level filling empty seats, or empty for none.
	Computer string
	Status   Status
	// Version counts the table's changes; Save refuses a change made
	// from an older version.
	Version int64
	Seats   []Seat
	// CutSeed is the seed the first deal was cut from; State is the game,
	// nil before it starts.
	CutSeed *engine.Seed
	State   *engine.State
	// Assisted is set once a player at the table has used the coach.
	Assisted bool
	// RemindedAt is when the bot last reminded a waiting player, and
	// ForfeitOfferedAt when it offered the opponents a forfeit.
	RemindedAt       time.Time
	ForfeitOfferedAt time.Time
	// WaitingSince is when the players the game waits on began waiting.
	WaitingSince time.Time
	CreatedAt    time.Time
	StartedAt    time.Time
	LastActionAt time.Time
	FinishedAt   time.Time
	// RematchID is the table that is this one's rematch, once made.
	RematchID int64
	// FourColour draws the table's cards in four colours (diamonds blue,
	// clubs green), for players who tell red from black poorly.
	FourColour bool
	// TokenOnly marks a table where the bot is not: a group DM, or a
	// server that did not install it, reached through a user's install
	// of the app. Only interactions' tokens reach its channel, so the bot
	// answers there through them alone: nothing is posted with the bot's
	// own token, no thread is opened, no timer posts. A table that
	// follows it (a rematch, a match's next game) is too.
	TokenOnly bool
	// CancelledBy is the user who cancelled the table, and CancelReason
	// the reason they gave (maybe none), once it is StatusCancelled.
	CancelledBy  string
	CancelReason string
	// Match is the match the table's game is part of, or nil for a game of
	// its own.
	Match *Match
	// Challenge, at a challenge, is the person the second seat is held for.
	Challenge *Challenge
	// Offer is a finished table's open rematch offer, if any.
	Offer *RematchOffer
	// Tournament ties a tournament's game to its tournament, or is nil.
	Tournament *TournamentLink
}

// Clone returns a copy of the table that shares nothing with it, for a
// change to be made on.
func (t *Table) Clone() *Table {
	c := *t
	c.Seats = slices.Clone(t.Seats)
	if t.State != nil {
		c.State = t.State.Clone()
	}
	if t.CutSeed != nil {
		seed := *t.CutSeed
		c.CutSeed = &seed
	}
	c.Match = t.Match.Clone()
	if t.Challenge != nil {
		ch := *t.Challenge
		c.Challenge = &ch
	}
	if t.Tournament != nil {
		l := *t.Tournament
		c.Tournament = &l
	}
	if t.Offer != nil {
		o := *t.Offer
		o.Accepted = slices.Clone(t.Offer.Accepted)
		c.Offer = &o
	}
	return &c
}

// AssignID gives t, a new table a change opens (Change.Next,
// TournamentChange.Open), the id the store draws for it as it saves it. A
// match t begins is known by it: a match is known by its first game.
func (t *Table) AssignID(id int64) {
	t.ID = id
	if t.Match != nil && t.Match.ID == 0 {
		t.Match.ID = id
	}
}

// Cancel ends an open table (a lobby or a game) for an admin: it is
// recorded as cancelled, by whom and why, and is not a result: no winner,
// and nothing in the records or the leaderboard. A table already over
// fails with ErrNotOpen.
func (t *Table) Cancel(by, reason string) error {
	if !t.Status.Open() {
		return ErrNotOpen
	}
	t.Status, t.CancelledBy, t.CancelReason = StatusCancelled, by, reason
	return nil
}

// Since is when the players the game waits on began waiting (the last
// move, for tables saved before this was kept).
func (t *Table) Since() time.Time {
	if t.WaitingSince.IsZero() {
		return t.LastActionAt
	}
	return t.WaitingSince
}

// SeatOf returns the seat a person sits in, or -1.
func (t *Table) SeatOf(userID string) int {
	for i, s := range t.Seats {
		if s.UserID == userID && s.Computer == "" {
			return i
		}
	}
	return -1
}

// HasComputer reports whether a computer player sits at the table.
func (t *Table) HasComputer() bool {
	for _, s := range t.Seats {
		if s.Computer != "" {
			return true
		}
	}
	return false
}

// HasPerson reports whether a person holds a seat at the table. A table
// without one (a tournament's game between computer entrants) is played
// quietly: no story, no table message; its result is on the standings.
func (t *Table) HasPerson() bool {
	for _, s := range t.Seats {
		if s.Computer == "" {
			return true
		}
	}
	return false
}

// LoggedAction is one engine action in a table's log, with who asked for it
// (empty for the bot's own actions, such as dealing).
type LoggedAction struct {
	UserID string
	Action engine.Action
}

// Change is what TableService.Save writes, all in one transaction.
type Change struct {
	// Table is the table as it should be saved: its host, options,
	// computer, status, seats, cut seed, game and times, its match,
	// challenge and rematch offer; its Version is set by the store. What
	// has a method of its own — Assisted and the timers — is kept as
	// stored: a change decided on an older read must not undo it. The
	// rematch is recorded by Next alone. What the MessageBook keeps is not
	// the table's, and no change writes it.
	Table *Table
	// Actions are appended to the table's log.
	Actions []LoggedAction
	// Outbox is queued for delivery in order.
	Outbox []Outbound
	// Events are what the change's game did (the table's own moves after
	// the person's included), for the caller to word; they are not saved.
	Events []engine.Event
	// Follows, at a new table (a rematch, a match's or a pairing's next
	// game), is the table it follows, for the caller's introduction; nil
	// for a first game. It is not saved.
	Follows *Table
	// Next, when set, is the change that makes the table that follows
	// Table — its rematch, or its match's next game — in the same
	// transaction. Next.Table is a new table with no id: the store gives
	// it its id (AssignID), version and times, saves it with Next's actions and
	// announcements, and records it as Table's rematch. A table has one:
	// if Table has one already the whole change fails with ErrRematched.
	// The new table's game is begun, not played (its computer players
	// move after the commit, through Continue), so Next has no Next.
	Next *Change
	// Hold is what the change must keep once written, checked in the same
	// transaction: see Hold.
	Hold Hold
}

// Hold is a limit on people's tables that a change must keep. The store
// checks it inside the transaction that writes the change, after the
// change's writes, where no other write can come between the check and
// the change: checked before the write, two commands at the same instant
// would both see room for one more and both get it. The zero Hold holds
// nothing.
type Hold struct {
	// MaxOpenTables, when above 0, is the most open tables (lobbies and
	// games) in the table's server that each of People may sit at once
	// the change is written (its next table counted): more fails the
	// change with ErrTooManyTables.
	MaxOpenTables int
	People        []string
	// OneChallenge fails the change with ErrChallengedAgain if the table's
	// host would then have more than one open challenge to the person the
	// table's challenge is for.
	OneChallenge bool
}

// Waiting returns the seats the game waits on: those still to throw to
// the crib, whoever is to play or count, or the dealer to deal.
func (t *Table) Waiting() []int {
	g := t.State
	if t.Status != StatusPlaying || g == nil {
		return nil
	}
	switch g.Phase {
	case engine.PhaseDiscard:
		return g.Waiting()
	case engine.PhasePlay, engine.PhaseShow:
		return []int{g.Turn}
	case engine.PhaseDeal:
		return []int{g.Dealer}
	}
	return nil
}

// SetGame records g as the table's game after a move made at now: the
// table is finished when the game is over, and the wait restarts for a
// seat that was not waiting before (both players throw to the crib from
// the deal on: one's discard does not restart the other's wait).
func (t *Table) SetGame(g *engine.State, now time.Time) {
	before := t.Waiting()
	t.State = g
	if g.Phase == engine.PhaseOver {
		t.Status = StatusFinished
	}
	for _, s := range t.Waiting() {
		if !slices.Contains(before, s) {
			t.WaitingSince = now
			break
		}
	}
}

// People are the user ids of the people seated at the table, in seat
// order.
func (t *Table) People() []string {
	var out []string
	for _, s := range t.Seats {
		if s.Computer == "" {
			out = append(out, s.UserID)
		}
	}
	return out
}
