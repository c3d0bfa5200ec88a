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
	// ErrNotFinished means the table's game is not over.
	ErrNotFinished = errors.New("cribbage: the game is not finished")
	// ErrMatchOn means a game of a match still undecided: its next game
	// starts by itself, and no rematch is offered.
	ErrMatchOn = errors.New("cribbage: the match goes on")
	// ErrNoOffer means the finished table has no open rematch offer.
	ErrNoOffer = errors.New("cribbage: no rematch is offered")
	// ErrAlreadyAccepted means the person has accepted the offer already.
	ErrAlreadyAccepted = errors.New("cribbage: the rematch is accepted already")
	// ErrMatchLength means a match of another length than 3 or 5 games.
	ErrMatchLength = errors.New("cribbage: a match is best of 3 or 5")
	// ErrMatchSides means a match at a table of more than two sides.
	ErrMatchSides = errors.New("cribbage: a match is between two sides")
	// ErrNoMatch means the table's game is not part of a match.
	ErrNoMatch = errors.New("cribbage: the game is not part of a match")
	// ErrSelfChallenge means a challenge to oneself.
	ErrSelfChallenge = errors.New("cribbage: nobody can challenge themselves")
	// ErrNotTwoPlayers means a challenge at a table of more than two.
	ErrNotTwoPlayers = errors.New("cribbage: a challenge is for two players")
	// ErrNotChallenge means the table is no challenge.
	ErrNotChallenge = errors.New("cribbage: the table is not a challenge")
	// ErrNotChallenged means someone other than the person challenged
	// answered a challenge.
	ErrNotChallenged = errors.New("cribbage: the challenge is for someone else")
	// ErrSeatHeld means the lobby's free seat is held for the person
	// challenged.
	ErrSeatHeld = errors.New("cribbage: the seat is held for the person challenged")
	// ErrTooManyTables means a person would sit at more open tables than
	// the server allows (Hold.MaxOpenTables).
	ErrTooManyTables = errors.New("cribbage: at the server's limit of open tables")
	// ErrChallengedAgain means a second open challenge from one person to
	// another (Hold.OneChallenge).
	ErrChallengedAgain = errors.New("cribbage: an open challenge to that person already")
	// ErrNoSeason means the server has no season of that number.
	ErrNoSeason = errors.New("cribbage: no such season")
	// ErrSeasonUnplayed means the current season has no game between
	// people yet, so starting another would change nothing.
	ErrSeasonUnplayed = errors.New("cribbage: the season has no games yet")
)
