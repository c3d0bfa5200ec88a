package refusal

import (
	"errors"
	"fmt"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// Apology is what a user sees for an error the bot did not expect.
const Apology = "Sorry — something went wrong on my side. Please try again in a moment."

// Words words an error for the player who caused it. known is false
// for unexpected errors, which the dispatcher logs.
func Words(err error) (msg string, known bool) {
	var which *WhichTableError
	if errors.As(err, &which) {
		return fmt.Sprintf("You're at more than one table here (%s). Add the `table` option to say which.", tableList(which.IDs)), true
	}
	var season *NoSeasonError
	if errors.As(err, &season) {
		return fmt.Sprintf("There's no season %d here: this server is in season %d. `/cribbage-club seasons` lists them.", season.Asked, season.Current), true
	}
	var cancelled *CancelledError
	if errors.As(err, &cancelled) {
		why := ""
		if cancelled.Reason != "" {
			why = ": " + cancelled.Reason
		}
		return fmt.Sprintf("Table %d was cancelled by <@%s>%s — it's over, and counts for nobody.", cancelled.ID, cancelled.By, why), true
	}
	var over *OverError
	if errors.As(err, &over) {
		if over.Result == "" {
			return fmt.Sprintf("Table %d closed before its game started. Open another with `/cribbage start`.", over.ID), true
		}
		return fmt.Sprintf("Table %d is over: %s `/cribbage replay table: %d` goes through it hand by hand.", over.ID, over.Result, over.ID), true
	}
	var many *TooManyTablesError
	if errors.As(err, &many) {
		return fmt.Sprintf("You already sit at %d open table%s in this server, the most it allows. Finish or leave one first: `/cribbage games` lists them.",
			many.Max, render.Plural(many.Max)), true
	}
	var card *engine.CardError
	if errors.As(err, &card) {
		if card.Twice {
			return fmt.Sprintf("%s is there twice: a deck has one of each card.", card.Text), true
		}
		return fmt.Sprintf("`%s` isn't a card. Write cards like 5H, 10D, JC or Q♠.", card.Text), true
	}
	for _, m := range errorTexts {
		if errors.Is(err, m.err) {
			return m.text, true
		}
	}
	return Apology, false
}

var errorTexts = []struct {
	err  error
	text string
}{
	{click.ErrBad, "That button isn't one I made, so I can't act on it."},
	{ErrUnknownCommand, "I don't know that command. `/cribbage help` lists what I can do."},
	{command.ErrBadOptions, "Those options aren't ones the command offers: pick them from the list Discord shows as you type the command."},
	{ErrNoUser, "I can't tell who sent that, so I did nothing."},
	{ErrOnlyInstalled, "That needs me in this server: ask an admin to add me. Through your install of me you can play a table here (`/cribbage start`), count a hand and answer the daily hand."},
	{ErrNotInGuild, "That needs a server. Here in a DM with me you can play the computer (`/cribbage start computer: easy`), count a hand, replay your games and answer the daily hand."},
	{cribbage.ErrNotSeated, "You're not seated at this table. Press **Join** while it has a free seat, or open your own with `/cribbage start`."},
	{ErrStaleView, "The table has moved on since this view was shown. Here is your hand as it is now."},
	{cribbage.ErrStale, "Someone acted at the same moment; nothing was changed. Press **Refresh** and try again."},
	{cribbage.ErrDuplicate, "That was already done — Discord sent the same click twice."},
	{ErrNotHere, "There's no such table in this channel."},
	{ErrNotInServer, "There's no table with that number in this server."},
	{ErrNotAdmin, "Only members with **Manage Server** can change this server's cribbage settings."},
	{ErrMayNotCancel, "Only members with **Manage Server**, or the role this server's settings name (`/cribbage-admin settings`), can do that."},
	{ErrNoForfeits, "Forfeits are turned off on this server, so there is no win to claim."},
	{cribbage.ErrNotOpen, "That table is over already: there is nothing to cancel."},
	{cribbage.ErrNotFound, "That table doesn't exist any more."},
	{cribbage.ErrNotPlaying, "This table's game isn't running."},
	{cribbage.ErrNotLobby, "This table's game has already started; seats can't change now."},
	{cribbage.ErrTableFull, "This table is full. Open another with `/cribbage start`."},
	{cribbage.ErrAlreadySeated, "You're already seated at this table."},
	{cribbage.ErrNotHost, "Only the host can start the game."},
	{cribbage.ErrNeedPlayers, "Not every seat is taken yet — the game starts as soon as the last player joins."},
	{ErrNoTable, "You have no open table here. Open one with `/cribbage start`, or join one with its **Join** button."},
	{ErrNotDealer, "Only the dealer deals."},
	{ErrBadClaim, "A claim is a whole number of points, from 0 to 29."},
	{engine.ErrBadClaim, "A claim is a whole number of points, from 0 to 29."},
	{ErrShuttingDown, "I'm restarting — please try again in a few seconds."},
	{ErrTooSoon, "It's too soon to claim the win: the waiting time hasn't passed since the last move."},
	{ErrNobodyLate, "No opponent is keeping the table waiting, so there is no win to claim."},
	{cribbage.ErrNotFinished, "This game isn't over yet."},
	{cribbage.ErrMatchOn, "The match goes on: its next game starts by itself."},
	{ErrNotAtTable, "Only the players of this game can offer its rematch or answer the offer. Open your own table with `/cribbage start`."},
	{cribbage.ErrNoOffer, "There's no rematch offer open here. Press **Rematch** to offer one."},
	{cribbage.ErrAlreadyAccepted, "You've said yes already: the rematch starts when everyone at the table has."},
	{cribbage.ErrRematched, "This table already has its rematch."},
	{cribbage.ErrNoMatch, "This game isn't part of a match: `/cribbage resign` resigns it."},
	{cribbage.ErrMatchSides, "A match is between two sides: two players, or four as two teams (`players: 4` with `teams: True`)."},
	{cribbage.ErrMatchLength, "A match is best of 3 or 5 games."},
	{cribbage.ErrSelfChallenge, "You can't challenge yourself. To play the computer, use `/cribbage start computer: strong`."},
	{cribbage.ErrNotTwoPlayers, "A challenge is for two players. For more, use `/cribbage start players: 3` (or 4)."},
	{cribbage.ErrNotChallenge, "This table isn't a challenge."},
	{cribbage.ErrNotChallenged, "This challenge is for someone else: only the person challenged can accept or decline it. Challenge someone yourself with `/cribbage challenge`."},
	{cribbage.ErrSeatHeld, "The free seat is held for the person challenged. Open your own table with `/cribbage start`."},
	{ErrChallengeBot, "Bots don't play cribbage here. Challenge a person, or play the computer with `/cribbage start computer: strong`."},
	{cribbage.ErrChallengedAgain, "You've already challenged them: that challenge is waiting for their answer. Withdraw it first to make another."},
	{ErrNotChallenger, "Only the challenger can withdraw a challenge."},
	{ErrNoTarget, "I can't tell whom you meant to challenge, so I did nothing."},
	{ErrNoReplay, "There's no finished hand to replay at that table yet."},
	{ErrReplayPlayers, "That game is still being played: only its players can replay its finished hands. Everyone can once it's over."},
	{ErrTournamentHere, "A tournament is open in this channel already: one at a time here. Cancel it with `/cribbage-admin tournament cancel`, or open the new one in another channel."},
	{ErrNoTournamentHere, "There's no open tournament in this channel."},
	{ErrNotTournamentAdm, "Only members with **Manage Server**, or whoever opened the tournament, can start it."},
	{cribbage.ErrTournamentNotFound, "That tournament doesn't exist any more."},
	{cribbage.ErrSignupClosed, "Sign-up is closed: the tournament has started (or is over)."},
	{cribbage.ErrAlreadyEntered, "You're signed up already."},
	{cribbage.ErrNotEntered, "You're not signed up, so there is nothing to withdraw."},
	{cribbage.ErrTournamentFull, "The tournament is full."},
	{cribbage.ErrFewEntrants, "Too few entrants to start: a tournament needs at least 4. Enter computer players with `/cribbage-admin tournament computers` to fill the field."},
	{cribbage.ErrTournamentOver, "That tournament is over already."},
	{cribbage.ErrTournamentSetup, "A tournament needs a name (up to 60 characters), 1 or 2 games a round, 1 to 9 rounds, and 61 or 121 points."},
	{cribbage.ErrTournamentGame, "A tournament game has no rematch: the tournament pairs the next games itself."},
	{cribbage.ErrNoPairing, "No round can be paired without a repeat."},
	{engine.ErrNotYourTurn, "It's not your turn."},
	{engine.ErrCardNotInHand, "That card isn't in your hand."},
	{engine.ErrOver31, "That card would take the count past 31."},
	{engine.ErrWrongCardCount, "Choose the right number of cards for the crib."},
	{engine.ErrAlreadyDone, "You've already thrown to the crib."},
	{engine.ErrWrongPhase, "That can't be done at this point of the hand."},
	{engine.ErrGameOver, "This game is over."},
	{engine.ErrOverClaim, "That's more than the cards score — count again."},
	{engine.ErrNothingMissed, "There are no missed points left to take."},
	{engine.ErrNotOpponent, "Only an opponent can call muggins."},
	{engine.ErrClaimerWaited, "You can't claim the win while the table is waiting for your side too: make your move first."},
	{engine.ErrBadCard, "That isn't a card. Write cards like 5H, 10D, JC or Q♠."},
	{cribbage.ErrNoSeason, "There's no such season here. `/cribbage-club seasons` lists them."},
	{cribbage.ErrSeasonUnplayed, "The current season has no games between people yet, so there is nothing to restart: its ratings are all fresh already."},
	{ErrNotSeasonAdmin, "Only members with **Manage Server** can start a new season."},
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

// Text words a known error.
func Text(err error) string {
	msg, _ := Words(err)
	return msg
}
