package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/cribbage-bot/cribbage/bot/click"
)

// The route table: every interaction the bot answers, once each — a slash
// command by name, or a button or form by its action (package click
// builds and parses their custom_ids) — with its handler and where it may
// be used (disgoorg/disgo's handler.Mux, as a table).

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
// command ("season new" for a subcommand of a group, see invoked);
// anywhere allows it in direct
// messages too (it needs no table).
type commandRoute struct {
	command  string
	name     string
	handle   func(b *Bot, ctx context.Context, ic *discordgo.Interaction) (reply, error)
	anywhere bool
}

// routeKey names a subcommand: its command and its own name.
type routeKey struct{ command, sub string }

var commandRoutes = []commandRoute{
	{commandName, "start", (*Bot).cmdStart, false},
	{commandName, "join", (*Bot).cmdJoin, false},
	{commandName, "leave", (*Bot).cmdLeave, false},
	{commandName, "hand", (*Bot).cmdHand, false},
	{commandName, "status", (*Bot).cmdStatus, false},
	{commandName, "resign", (*Bot).cmdResign, false},
	{commandName, "challenge", (*Bot).cmdChallenge, false},
	{commandName, "count", (*Bot).cmdCount, true},
	{commandName, "games", (*Bot).cmdGames, false},
	{commandName, "verify", (*Bot).cmdVerify, true},
	{commandName, "replay", (*Bot).cmdReplay, false},
	{commandName, "rules", (*Bot).cmdRules, true},
	{commandName, "help", (*Bot).cmdHelp, true},
	{clubCommand, "leaderboard", (*Bot).cmdLeaderboard, false},
	{clubCommand, "stats", (*Bot).cmdStats, false},
	{clubCommand, "seasons", (*Bot).cmdSeasons, false},
	{clubCommand, "tournament", (*Bot).cmdTournamentStandings, false},
	{adminCommand, "cancel", (*Bot).cmdCancel, false},
	{adminCommand, "settings", (*Bot).cmdSettings, false},
	{adminCommand, "season new", (*Bot).cmdSeasonNew, false},
	{adminCommand, "tournament open", (*Bot).cmdTournamentOpen, false},
	{adminCommand, "tournament start", (*Bot).cmdTournamentStart, false},
	{adminCommand, "tournament cancel", (*Bot).cmdTournamentCancel, false},
	{adminCommand, "tournament computers", (*Bot).cmdTournamentComputers, false},
	// The user context-menu command (a person's name → Apps), which has no
	// subcommand.
	{challengeMenu, "", (*Bot).menuChallenge, false},
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
