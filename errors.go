package cribbage

import "errors"

// The errors a service returns for the bot to explain; match them with
// errors.Is.
var (
	// ErrNotFound means no table has that id.
	ErrNotFound = errors.New("cribbage: no such table")
	// ErrStale means the table changed since the caller looked at it.
	ErrStale = errors.New("cribbage: the table has changed")
	// ErrDuplicate means the interaction was already processed.
	ErrDuplicate = errors.New("cribbage: interaction already processed")
	// ErrNotPlaying means the table's game is not on.
	ErrNotPlaying = errors.New("cribbage: the game is not on")
	// ErrNotSeated means nobody is seated there, or a computer is.
	ErrNotSeated = errors.New("cribbage: not seated at this table")
	// ErrNotLobby means the table's seats can no longer change: its game
	// has started, or it is closed.
	ErrNotLobby = errors.New("cribbage: the game has started")
	// ErrAlreadySeated means the person has a seat at the table already.
	ErrAlreadySeated = errors.New("cribbage: already seated")
	// ErrTableFull means the lobby has no free seat.
	ErrTableFull = errors.New("cribbage: the table is full")
	// ErrNotHost means only the table's host may do that.
	ErrNotHost = errors.New("cribbage: only the host may do that")
	// ErrNeedPlayers means seats are still empty and no computer fills
	// them.
	ErrNeedPlayers = errors.New("cribbage: seats are still empty")
	// ErrNotOpen means the table is over: finished, closed or cancelled.
	ErrNotOpen = errors.New("cribbage: the table is over")
	// ErrRematched means the finished table has its rematch already.
	ErrRematched = errors.New("cribbage: the table has its rematch already")
	// ErrNoSeason means the server has no season of that number.
	ErrNoSeason = errors.New("cribbage: no such season")
	// ErrSeasonUnplayed means the current season has no game between
	// people yet, so starting another would change nothing.
	ErrSeasonUnplayed = errors.New("cribbage: the season has no games yet")
)
