package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/cribbage-bot/cribbage/bot/click"
)

// The route table: every interaction the bot answers, once each — a slash
// command by name, or a button or form by its action (package click
// builds and parses their custom_ids) — with its handler
// (disgoorg/disgo's handler.Mux, as a table). Every one is answered in
// servers only.

// clickRoute is a button or form: its action and handler. Clicks are
// answered in servers only.
type clickRoute struct {
	action click.Action
	handle func(b *Bot, ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error)
}

var clickRoutes = []clickRoute{
	{click.Join, (*Bot).clickJoin},
	{click.Leave, (*Bot).clickLeave},
	{click.Begin, (*Bot).clickBegin},
	{click.Hand, (*Bot).clickHand},
	{click.Refresh, (*Bot).clickHand},
	{click.Deal, (*Bot).clickDeal},
	{click.Select, (*Bot).clickSelect},
	{click.Discard, (*Bot).clickDiscard},
	{click.Play, (*Bot).clickPlay},
	{click.Claim, (*Bot).clickClaim},
	{click.Claimed, (*Bot).clickClaimed},
	{click.Muggins, (*Bot).clickMuggins},
	{click.Resign, (*Bot).clickResign},
	{click.Hint, (*Bot).clickHint},
	{click.Review, (*Bot).clickReview},
	{click.ClaimWin, (*Bot).clickClaimWin},
	{click.Rematch, (*Bot).clickRematch},
	{click.NoRematch, (*Bot).clickNoRematch},
	{click.Replay, (*Bot).clickReplay},
	{click.ResignMatch, (*Bot).clickResignMatch},
	{click.Accept, (*Bot).clickAccept},
	{click.Decline, (*Bot).clickDecline},
	{click.Withdraw, (*Bot).clickWithdraw},
	// A tournament's buttons: {table} is the tournament's id.
	{click.TSignUp, (*Bot).clickTournamentSignUp},
	{click.TWithdraw, (*Bot).clickTournamentWithdraw},
	{click.TStart, (*Bot).clickTournamentStart},
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
	clickByAction  = map[click.Action]*clickRoute{}
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
