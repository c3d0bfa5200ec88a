package engine

import "errors"

// The errors Apply returns, wrapped with details; match them with errors.Is.
var (
	ErrBadCard        = errors.New("engine: not a card")
	ErrBadClaim       = errors.New("engine: a claim is 0 to 29 points")
	ErrBadAction      = errors.New("engine: malformed action")
	ErrBadSeat        = errors.New("engine: no such seat")
	ErrWrongPhase     = errors.New("engine: not allowed in this phase")
	ErrNotYourTurn    = errors.New("engine: not your turn")
	ErrCardNotInHand  = errors.New("engine: card not in your hand")
	ErrOver31         = errors.New("engine: card would take the count past 31")
	ErrWrongCardCount = errors.New("engine: wrong number of cards")
	ErrAlreadyDone    = errors.New("engine: already done")
	ErrGameOver       = errors.New("engine: game over")
	ErrOverClaim      = errors.New("engine: claim is more than the hand scores")
	ErrNothingMissed  = errors.New("engine: no missed points to take")
	ErrNotOpponent    = errors.New("engine: only an opponent may call muggins")
	ErrClaimerWaited  = errors.New("engine: the table is waiting on the claimer's side")
	ErrBadOptions     = errors.New("engine: invalid table options")
	ErrBadState       = errors.New("engine: invalid state")
)
