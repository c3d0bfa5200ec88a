package refusal

import (
	"errors"
	"fmt"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// Apology is what a user sees for an error the bot did not expect.
func Apology(l lang.Lang) string { return l.T("refusal.apology") }

// Words words an error for the player who caused it, in their language.
// known is false for unexpected errors, which the dispatcher logs.
func Words(l lang.Lang, err error) (msg string, known bool) {
	var which *WhichTableError
	if errors.As(err, &which) {
		return l.T("refusal.which-table", "Tables", tableList(which.IDs)), true
	}
	var season *NoSeasonError
	if errors.As(err, &season) {
		return l.T("refusal.no-such-season", "Asked", season.Asked, "Current", season.Current), true
	}
	var cancelled *CancelledError
	if errors.As(err, &cancelled) {
		if cancelled.Reason != "" {
			return l.T("refusal.cancelled-why", "ID", cancelled.ID, "By", cancelled.By, "Reason", cancelled.Reason), true
		}
		return l.T("refusal.cancelled", "ID", cancelled.ID, "By", cancelled.By), true
	}
	var over *OverError
	if errors.As(err, &over) {
		if t := over.Finished; t != nil && t.State != nil {
			return l.T("refusal.over", "ID", over.ID, "Result", render.ResultLine(l, t, t.State.Result)), true
		}
		return l.T("refusal.closed", "ID", over.ID), true
	}
	var many *TooManyTablesError
	if errors.As(err, &many) {
		return l.N("refusal.too-many-tables", many.Max), true
	}
	var card *engine.CardError
	if errors.As(err, &card) {
		if card.Twice {
			return l.T("refusal.card-twice", "Card", card.Text), true
		}
		return l.T("refusal.not-a-card", "Card", card.Text), true
	}
	for _, m := range errorTexts {
		if errors.Is(err, m.err) {
			return l.T(m.id), true
		}
	}
	return Apology(l), false
}

var errorTexts = []struct {
	err error
	id  string // its words' message in the catalogues (bot/lang)
}{
	{click.ErrBad, "refusal.bad"},
	{ErrUnknownCommand, "refusal.unknown-command"},
	{command.ErrBadOptions, "refusal.bad-options"},
	{ErrNoUser, "refusal.no-user"},
	{ErrOnlyInstalled, "refusal.only-installed"},
	{ErrNotInGuild, "refusal.not-in-guild"},
	{cribbage.ErrNotSeated, "refusal.not-seated"},
	{ErrStaleView, "refusal.stale-view"},
	{cribbage.ErrStale, "refusal.stale"},
	{cribbage.ErrDuplicate, "refusal.duplicate"},
	{ErrNotHere, "refusal.not-here"},
	{ErrNotInServer, "refusal.not-in-server"},
	{ErrNotAdmin, "refusal.not-admin"},
	{ErrMayNotCancel, "refusal.may-not-cancel"},
	{ErrNoForfeits, "refusal.no-forfeits"},
	{cribbage.ErrNotOpen, "refusal.not-open"},
	{cribbage.ErrNotFound, "refusal.not-found"},
	{cribbage.ErrNotPlaying, "refusal.not-playing"},
	{cribbage.ErrNotLobby, "refusal.not-lobby"},
	{cribbage.ErrTableFull, "refusal.table-full"},
	{cribbage.ErrAlreadySeated, "refusal.already-seated"},
	{cribbage.ErrNotHost, "refusal.not-host"},
	{cribbage.ErrNeedPlayers, "refusal.need-players"},
	{ErrNoTable, "refusal.no-table"},
	{ErrNotDealer, "refusal.not-dealer"},
	{ErrBadClaim, "refusal.bad-claim"},
	{engine.ErrBadClaim, "refusal.engine-bad-claim"},
	{ErrShuttingDown, "refusal.shutting-down"},
	{ErrTooSoon, "refusal.too-soon"},
	{ErrNobodyLate, "refusal.nobody-late"},
	{cribbage.ErrNotFinished, "refusal.not-finished"},
	{cribbage.ErrMatchOn, "refusal.match-on"},
	{ErrNotAtTable, "refusal.not-at-table"},
	{cribbage.ErrNoOffer, "refusal.no-offer"},
	{cribbage.ErrAlreadyAccepted, "refusal.already-accepted"},
	{cribbage.ErrRematched, "refusal.rematched"},
	{cribbage.ErrNoMatch, "refusal.no-match"},
	{cribbage.ErrMatchSides, "refusal.match-sides"},
	{cribbage.ErrMatchLength, "refusal.match-length"},
	{cribbage.ErrSelfChallenge, "refusal.self-challenge"},
	{cribbage.ErrNotTwoPlayers, "refusal.not-two-players"},
	{cribbage.ErrNotChallenge, "refusal.not-challenge"},
	{cribbage.ErrNotChallenged, "refusal.not-challenged"},
	{cribbage.ErrSeatHeld, "refusal.seat-held"},
	{ErrChallengeBot, "refusal.challenge-bot"},
	{cribbage.ErrChallengedAgain, "refusal.challenged-again"},
	{ErrNotChallenger, "refusal.not-challenger"},
	{ErrNoTarget, "refusal.no-target"},
	{ErrNoReplay, "refusal.no-replay"},
	{ErrReplayPlayers, "refusal.replay-players"},
	{ErrTournamentHere, "refusal.tournament-here"},
	{ErrNoTournamentHere, "refusal.no-tournament-here"},
	{ErrNotTournamentAdm, "refusal.not-tournament-adm"},
	{cribbage.ErrTournamentNotFound, "refusal.tournament-not-found"},
	{cribbage.ErrSignupClosed, "refusal.signup-closed"},
	{cribbage.ErrAlreadyEntered, "refusal.already-entered"},
	{cribbage.ErrNotEntered, "refusal.not-entered"},
	{cribbage.ErrTournamentFull, "refusal.tournament-full"},
	{cribbage.ErrFewEntrants, "refusal.few-entrants"},
	{cribbage.ErrTournamentOver, "refusal.tournament-over"},
	{cribbage.ErrTournamentSetup, "refusal.tournament-setup"},
	{cribbage.ErrTournamentGame, "refusal.tournament-game"},
	{cribbage.ErrNoPairing, "refusal.no-pairing"},
	{engine.ErrNotYourTurn, "refusal.not-your-turn"},
	{engine.ErrCardNotInHand, "refusal.card-not-in-hand"},
	{engine.ErrOver31, "refusal.over31"},
	{engine.ErrWrongCardCount, "refusal.wrong-card-count"},
	{engine.ErrAlreadyDone, "refusal.already-done"},
	{engine.ErrWrongPhase, "refusal.wrong-phase"},
	{engine.ErrGameOver, "refusal.game-over"},
	{engine.ErrOverClaim, "refusal.over-claim"},
	{engine.ErrNothingMissed, "refusal.nothing-missed"},
	{engine.ErrNotOpponent, "refusal.not-opponent"},
	{engine.ErrClaimerWaited, "refusal.claimer-waited"},
	{engine.ErrBadCard, "refusal.bad-card"},
	{cribbage.ErrNoSeason, "refusal.no-season"},
	{cribbage.ErrSeasonUnplayed, "refusal.season-unplayed"},
	{ErrNotSeasonAdmin, "refusal.not-season-admin"},
}

// tableList writes table ids as "12, 15".
func tableList(ids []int64) string {
	s := ""
	for i, id := range ids {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(id)
	}
	return s
}

// Text words a known error in l.
func Text(l lang.Lang, err error) string {
	msg, _ := Words(l, err)
	return msg
}
