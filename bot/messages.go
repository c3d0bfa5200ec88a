package bot

import (
	"errors"
	"fmt"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// The bot's own refusals; userMessage words them for players.
var (
	errNotInGuild   = errors.New("bot: not in a server")
	errStaleView    = errors.New("bot: the hand view is out of date")
	errNoTable      = errors.New("bot: no table found")
	errNotDealer    = errors.New("bot: only the dealer deals")
	errBadClaim     = errors.New("bot: a claim is a number")
	errShuttingDown = errors.New("bot: shutting down")
)

// whichTableError lists the tables a command could mean.
type whichTableError struct{ ids []int64 }

func (e *whichTableError) Error() string { return fmt.Sprintf("bot: several tables: %v", e.ids) }

// genericApology is what a user sees for an error the bot did not expect.
const genericApology = "Sorry — something went wrong on my side. Please try again in a moment."

// userMessage words an error for the player who caused it. known is false
// for unexpected errors, which the dispatcher logs.
func userMessage(err error) (msg string, known bool) {
	var which *whichTableError
	if errors.As(err, &which) {
		return fmt.Sprintf("You're at more than one table here (%s). Add the `table` option to say which.", tableList(which.ids)), true
	}
	var season *noSeasonError
	if errors.As(err, &season) {
		return fmt.Sprintf("There's no season %d here: this server is in season %d. `/cribbage-club seasons` lists them.", season.asked, season.current), true
	}
	var cancelled *cancelledError
	if errors.As(err, &cancelled) {
		why := ""
		if cancelled.reason != "" {
			why = ": " + cancelled.reason
		}
		return fmt.Sprintf("Table %d was cancelled by <@%s>%s — it's over, and counts for nobody.", cancelled.id, cancelled.by, why), true
	}
	var over *overError
	if errors.As(err, &over) {
		if over.result == "" {
			return fmt.Sprintf("Table %d closed before its game started. Open another with `/cribbage start`.", over.id), true
		}
		return fmt.Sprintf("Table %d is over: %s `/cribbage replay table: %d` goes through it hand by hand.", over.id, over.result, over.id), true
	}
	var many *tooManyTablesError
	if errors.As(err, &many) {
		return fmt.Sprintf("You already sit at %d open table%s in this server, the most it allows. Finish or leave one first: `/cribbage games` lists them.",
			many.max, render.Plural(many.max)), true
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
	return genericApology, false
}

var errorTexts = []struct {
	err  error
	text string
}{
	{click.ErrBad, "That button isn't one I made, so I can't act on it."},
	{errUnknownCommand, "I don't know that command. `/cribbage help` lists what I can do."},
	{command.ErrBadOptions, "Those options aren't ones the command offers: pick them from the list Discord shows as you type the command."},
	{errNoUser, "I can't tell who sent that, so I did nothing."},
	{errNotInGuild, "Cribbage is played at a table in a server channel — use `/cribbage start` there."},
	{cribbage.ErrNotSeated, "You're not seated at this table. Press **Join** while it has a free seat, or open your own with `/cribbage start`."},
	{errStaleView, "The table has moved on since this view was shown. Here is your hand as it is now."},
	{cribbage.ErrStale, "Someone acted at the same moment; nothing was changed. Press **Refresh** and try again."},
	{cribbage.ErrDuplicate, "That was already done — Discord sent the same click twice."},
	{errNotHere, "There's no such table in this channel."},
	{errNotInServer, "There's no table with that number in this server."},
	{errNotAdmin, "Only members with **Manage Server** can change this server's cribbage settings."},
	{errMayNotCancel, "Only members with **Manage Server**, or the role this server's settings name (`/cribbage-admin settings`), can do that."},
	{errNoForfeits, "Forfeits are turned off on this server, so there is no win to claim."},
	{cribbage.ErrNotOpen, "That table is over already: there is nothing to cancel."},
	{cribbage.ErrNotFound, "That table doesn't exist any more."},
	{cribbage.ErrNotPlaying, "This table's game isn't running."},
	{cribbage.ErrNotLobby, "This table's game has already started; seats can't change now."},
	{cribbage.ErrTableFull, "This table is full. Open another with `/cribbage start`."},
	{cribbage.ErrAlreadySeated, "You're already seated at this table."},
	{cribbage.ErrNotHost, "Only the host can start the game."},
	{cribbage.ErrNeedPlayers, "Not every seat is taken yet — the game starts as soon as the last player joins."},
	{errNoTable, "You have no open table here. Open one with `/cribbage start`, or join one with its **Join** button."},
	{errNotDealer, "Only the dealer deals."},
	{errBadClaim, "A claim is a whole number of points, from 0 to 29."},
	{engine.ErrBadClaim, "A claim is a whole number of points, from 0 to 29."},
	{errShuttingDown, "I'm restarting — please try again in a few seconds."},
	{errTooSoon, "It's too soon to claim the win: the waiting time hasn't passed since the last move."},
	{errNobodyLate, "No opponent is keeping the table waiting, so there is no win to claim."},
	{cribbage.ErrNotFinished, "This game isn't over yet."},
	{cribbage.ErrMatchOn, "The match goes on: its next game starts by itself."},
	{errNotAtTable, "Only the players of this game can offer its rematch or answer the offer. Open your own table with `/cribbage start`."},
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
	{errChallengeBot, "Bots don't play cribbage here. Challenge a person, or play the computer with `/cribbage start computer: strong`."},
	{cribbage.ErrChallengedAgain, "You've already challenged them: that challenge is waiting for their answer. Withdraw it first to make another."},
	{errNotChallenger, "Only the challenger can withdraw a challenge."},
	{errNoTarget, "I can't tell whom you meant to challenge, so I did nothing."},
	{errNoReplay, "There's no finished hand to replay at that table yet."},
	{errReplayPlayers, "That game is still being played: only its players can replay its finished hands. Everyone can once it's over."},
	{errTournamentHere, "A tournament is open in this channel already: one at a time here. Cancel it with `/cribbage-admin tournament cancel`, or open the new one in another channel."},
	{errNoTournamentHere, "There's no open tournament in this channel."},
	{errNotTournamentAdm, "Only members with **Manage Server**, or whoever opened the tournament, can start it."},
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
	{errNotSeasonAdmin, "Only members with **Manage Server** can start a new season."},
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
