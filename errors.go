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
	// ErrRematched means the finished table has its rematch already.
	ErrRematched = errors.New("cribbage: the table has its rematch already")
	// ErrNoSeason means the server has no season of that number.
	ErrNoSeason = errors.New("cribbage: no such season")
	// ErrSeasonUnplayed means the current season has no game between
	// people yet, so starting another would change nothing.
	ErrSeasonUnplayed = errors.New("cribbage: the season has no games yet")
)
