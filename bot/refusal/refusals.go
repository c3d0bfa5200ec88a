// Package refusal holds what the bot refuses a player, and how it says so:
// the bot's own refusals, and Words, which words any error (the domain's,
// the engine's or the bot's) for the player who caused it.
package refusal

import (
	"errors"
	"fmt"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/replay"
)

// Refusals of who may do what.
var (
	ErrNotAdmin     = errors.New("bot: needs Manage Server")
	ErrMayNotCancel = errors.New("bot: needs Manage Server or the cancel role")
	// ErrNotSeasonAdmin refuses a new season to a member who may not
	// manage the server.
	ErrNotSeasonAdmin   = errors.New("bot: starting a season needs Manage Server")
	ErrNotTournamentAdm = errors.New("bot: needs Manage Server or to have opened the tournament")
	// ErrNotAtTable refuses a rematch's offer or answer to someone who did
	// not play the game: a finished table has no seat to join.
	ErrNotAtTable    = errors.New("bot: only the table's players answer its rematch")
	ErrNotChallenger = errors.New("bot: only the challenger withdraws a challenge")
	ErrReplayPlayers = errors.New("bot: a game in progress is replayed by its players only")
	ErrNotDealer     = errors.New("bot: only the dealer deals")
)

// Refusals of where a table is.
var (
	// ErrNotHere refuses a table named from somewhere else. It is a kind
	// of cribbage.ErrNotFound, and worded the same whether the table is in
	// another channel, another server or nowhere, so that table ids typed
	// or forged in one place tell nothing about tables in places the user
	// may not see.
	ErrNotHere = fmt.Errorf("%w: no such table in this channel", cribbage.ErrNotFound)
	// ErrNotInServer refuses a table of another server, worded as no
	// table at all (like ErrNotHere).
	ErrNotInServer = fmt.Errorf("%w: no such table in this server", cribbage.ErrNotFound)
	ErrNotInGuild  = errors.New("bot: not in a server")
	// ErrOnlyInstalled refuses, in a server only a user's install of the
	// app reaches (not the bot), what needs the bot in the server: its
	// records, its admins' tools, a challenge, a tournament.
	ErrOnlyInstalled    = errors.New("bot: only a user's install reaches here")
	ErrNoTable          = errors.New("bot: no table found")
	ErrTournamentHere   = errors.New("bot: a tournament is open in this channel already")
	ErrNoTournamentHere = errors.New("bot: no open tournament in this channel")
	ErrNoReplay         = replay.ErrNoHand
)

// Refusals of forfeits.
var (
	// ErrTooSoon means a forfeit was claimed before the waiting time.
	ErrTooSoon = errors.New("bot: too soon to claim a forfeit")
	// ErrNobodyLate means a forfeit was claimed when no opponent has to
	// move.
	ErrNobodyLate = errors.New("bot: no opponent is keeping the table waiting")
	// ErrNoForfeits means the server turned forfeits off.
	ErrNoForfeits = errors.New("bot: forfeits are off on this server")
)

// Refusals of what arrived.
var (
	// ErrUnknownCommand refuses a slash command the bot does not have (one
	// registered by an older version, say).
	ErrUnknownCommand = errors.New("bot: unknown command")
	// ErrNoUser refuses an interaction that names nobody: every table,
	// seat and record belongs to a user, and Discord always says who
	// acted.
	ErrNoUser       = errors.New("bot: the interaction names no user")
	ErrNoTarget     = errors.New("bot: the interaction names nobody to challenge")
	ErrChallengeBot = errors.New("bot: a bot cannot be challenged")
	ErrStaleView    = errors.New("bot: the hand view is out of date")
	ErrBadClaim     = errors.New("bot: a claim is a number")
	ErrShuttingDown = errors.New("bot: shutting down")
)

// CancelledError answers anything done at a cancelled table: who
// cancelled it, and why.
type CancelledError struct {
	ID         int64
	By, Reason string
}

func (e *CancelledError) Error() string { return fmt.Sprintf("bot: table %d was cancelled", e.ID) }

// OverError answers what needs a table open at one that is over: its game
// finished (Finished is the table, whose result is worded in the
// player's language), or it closed before its game started.
type OverError struct {
	ID       int64
	Finished *cribbage.Table
}

func (e *OverError) Error() string { return fmt.Sprintf("bot: table %d is over", e.ID) }

// TooManyTablesError refuses a seat beyond the server's limit.
type TooManyTablesError struct{ Max int }

func (e *TooManyTablesError) Error() string {
	return fmt.Sprintf("bot: at the server's limit of %d open tables", e.Max)
}

// Unwrap makes it a cribbage.ErrTooManyTables.
func (e *TooManyTablesError) Unwrap() error { return cribbage.ErrTooManyTables }

// NoSeasonError refuses a season the server has not reached.
type NoSeasonError struct{ Asked, Current int64 }

func (e *NoSeasonError) Error() string { return fmt.Sprintf("bot: no season %d", e.Asked) }

// WhichTableError lists the tables a command could mean.
type WhichTableError struct{ IDs []int64 }

func (e *WhichTableError) Error() string { return fmt.Sprintf("bot: several tables: %v", e.IDs) }
