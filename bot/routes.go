package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"
)

// The route table: every interaction the bot answers, once each — a slash
// command by name, or a button or form by its custom_id pattern — with
// its handler (disgoorg/disgo's handler.Mux, as a table). Every one is
// answered in servers only. Custom IDs are built and parsed from these
// patterns alone, in customid.go.

// action names a kind of click: the first segment of its custom_id.
type action string

// The actions, one per click route.
const (
	actJoin      action = "join"        // take a seat in a lobby
	actLeave     action = "leave"       // give up a seat in a lobby
	actBegin     action = "begin"       // the host starts, computers filling seats
	actHand      action = "hand"        // show my hand
	actRefresh   action = "refresh"     // show my hand again
	actDeal      action = "deal"        // the dealer deals (muggins tables)
	actSelect    action = "sel"         // toggle a card for the crib
	actDiscard   action = "discard"     // confirm the throw
	actPlay      action = "play"        // lay a card
	actClaim     action = "claim"       // open the claim form (manual counting)
	actClaimed   action = "claimed"     // the claim form submitted
	actMuggins   action = "muggins"     // take points an opponent missed
	actResign    action = "resign"      // concede, after confirming
	actHint      action = "hint"        // ask the coach
	actReview    action = "review"      // the coach reviews the last discard
	actClaimWin  action = "claimwin"    // claim the win from a player who did not move in time
	actRematch   action = "rematch"     // offer a new game with the same seats, or accept the offer
	actNoMatch   action = "norematch"   // decline the rematch offer
	actReplay    action = "replay"      // a hand of a game's replay
	actResignM   action = "resignmatch" // resign the match, after confirming
	actAccept    action = "accept"      // the person challenged accepts
	actDecline   action = "decline"     // the person challenged declines
	actWithdraw  action = "withdraw"    // the challenger takes the challenge back
	actTSignUp   action = "tsignup"     // sign up for a tournament
	actTWithdraw action = "twithdraw"   // withdraw from a tournament before it starts
	actTStart    action = "tstart"      // start a tournament (an admin, or whoever opened it)
)

// clickRoute is a button or form: its custom_id pattern and handler.
// Clicks are answered in servers only.
type clickRoute struct {
	action  action
	pattern string
	handle  func(b *Bot, ctx context.Context, ic *discordgo.Interaction, c clickID) (reply, error)
}

// The patterns' placeholders: {table} a table id, {view} the seat's view
// version, {cards} a card set in hex, {card} a card, {index} a small number.
var clickRoutes = []clickRoute{
	{actJoin, "/join/{table}", (*Bot).clickJoin},
	{actLeave, "/leave/{table}", (*Bot).clickLeave},
	{actBegin, "/begin/{table}", (*Bot).clickBegin},
	{actHand, "/hand/{table}", (*Bot).clickHand},
	{actRefresh, "/refresh/{table}", (*Bot).clickHand},
	{actDeal, "/deal/{table}", (*Bot).clickDeal},
	{actSelect, "/sel/{table}/{view}/{cards}", (*Bot).clickSelect},
	{actDiscard, "/discard/{table}/{view}/{cards}", (*Bot).clickDiscard},
	{actPlay, "/play/{table}/{view}/{card}", (*Bot).clickPlay},
	{actClaim, "/claim/{table}/{view}", (*Bot).clickClaim},
	{actClaimed, "/claimed/{table}/{view}", (*Bot).clickClaimed},
	{actMuggins, "/muggins/{table}/{view}/{index}", (*Bot).clickMuggins},
	{actResign, "/resign/{table}", (*Bot).clickResign},
	{actHint, "/hint/{table}/{view}", (*Bot).clickHint},
	{actReview, "/review/{table}", (*Bot).clickReview},
	{actClaimWin, "/claimwin/{table}", (*Bot).clickClaimWin},
	{actRematch, "/rematch/{table}", (*Bot).clickRematch},
	{actNoMatch, "/norematch/{table}", (*Bot).clickNoRematch},
	{actReplay, "/replay/{table}/{index}", (*Bot).clickReplay},
	{actResignM, "/resignmatch/{table}", (*Bot).clickResignMatch},
	{actAccept, "/accept/{table}", (*Bot).clickAccept},
	{actDecline, "/decline/{table}", (*Bot).clickDecline},
	{actWithdraw, "/withdraw/{table}", (*Bot).clickWithdraw},
	// A tournament's buttons: {table} is the tournament's id.
	{actTSignUp, "/tsignup/{table}", (*Bot).clickTournamentSignUp},
	{actTWithdraw, "/twithdraw/{table}", (*Bot).clickTournamentWithdraw},
	{actTStart, "/tstart/{table}", (*Bot).clickTournamentStart},
}

// commandRoute is a subcommand of one of the bot's commands (or a user
// command, which has none) and its handler; name is its path within the
// command ("season new" for a subcommand of a group, see invoked). Every
// command is registered for servers only (commandDefinitions), so every
// route is answered in servers only.
type commandRoute struct {
	command string
	name    string
	handle  func(b *Bot, ctx context.Context, ic *discordgo.Interaction) (reply, error)
}

// routeKey names a subcommand: its command and its own name.
type routeKey struct{ command, sub string }

var commandRoutes = []commandRoute{
	{commandName, "start", (*Bot).cmdStart},
	{commandName, "join", (*Bot).cmdJoin},
	{commandName, "leave", (*Bot).cmdLeave},
	{commandName, "hand", (*Bot).cmdHand},
	{commandName, "status", (*Bot).cmdStatus},
	{commandName, "resign", (*Bot).cmdResign},
	{commandName, "challenge", (*Bot).cmdChallenge},
	{commandName, "count", (*Bot).cmdCount},
	{commandName, "games", (*Bot).cmdGames},
	{commandName, "verify", (*Bot).cmdVerify},
	{commandName, "replay", (*Bot).cmdReplay},
	{commandName, "rules", (*Bot).cmdRules},
	{commandName, "help", (*Bot).cmdHelp},
	{clubCommand, "leaderboard", (*Bot).cmdLeaderboard},
	{clubCommand, "stats", (*Bot).cmdStats},
	{clubCommand, "seasons", (*Bot).cmdSeasons},
	{clubCommand, "tournament", (*Bot).cmdTournamentStandings},
	{adminCommand, "cancel", (*Bot).cmdCancel},
	{adminCommand, "settings", (*Bot).cmdSettings},
	{adminCommand, "season new", (*Bot).cmdSeasonNew},
	{adminCommand, "tournament open", (*Bot).cmdTournamentOpen},
	{adminCommand, "tournament start", (*Bot).cmdTournamentStart},
	{adminCommand, "tournament cancel", (*Bot).cmdTournamentCancel},
	{adminCommand, "tournament computers", (*Bot).cmdTournamentComputers},
	// The user context-menu command (a person's name → Apps), which has no
	// subcommand.
	{challengeMenu, "", (*Bot).menuChallenge},
}

// movedRoutes are subcommands an older version had, and where they went:
// a client that has not yet seen the commands replaced is told.
var movedRoutes = map[routeKey]string{
	{commandName, "leaderboard"}: "/" + clubCommand + " leaderboard",
	{commandName, "stats"}:       "/" + clubCommand + " stats",
}

// The route table indexed, for lookups.
var (
	clickByAction  = map[action]*clickRoute{}
	commandsByName = map[routeKey]*commandRoute{}
)

func init() {
	for i := range clickRoutes {
		clickByAction[clickRoutes[i].action] = &clickRoutes[i]
	}
	for i := range commandRoutes {
		r := &commandRoutes[i]
		commandsByName[routeKey{r.command, r.name}] = r
	}
}
